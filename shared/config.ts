/** Settings every function reads once, at cold start. A missing one stops the container loudly. */
export interface Config {
  tableName: string;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}

export const config: Config = {
  tableName: required('TABLE_NAME'),
};
