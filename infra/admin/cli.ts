import { runAdmin } from './admin';

// `npm run admin -- <command>`: the command's one JSON line on stdout, or its message on stderr and a non-zero exit.
const { code, stdout, stderr } = await runAdmin(process.argv.slice(2), { configure: (environment) => Object.assign(process.env, environment) });
process.stdout.write(stdout);
process.stderr.write(stderr);
process.exitCode = code;
