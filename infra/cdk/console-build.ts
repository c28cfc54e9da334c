import { buildConsole } from '../console/build';

/** The console's files into the directory given: the CDK asset's local bundling runs this (infra/cdk/console-site.ts). */
const outDir = process.argv[2];
if (!outDir) throw new Error('Usage: console-build.ts <outDir>');
const { files, bytes } = await buildConsole(outDir);
console.log(`The console: ${files.length} files, ${bytes} bytes, in ${outDir}`);
