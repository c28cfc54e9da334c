import { spawn } from 'node:child_process';

/**
 * `npm test`'s last two steps side by side: the test suite, and `npm run synth` (every function bundled, the templates
 * written and held to cdk-nag). The synth reads nothing the suite writes and waits on much of its own (the CDK CLI, the
 * bundlers), so on two cores the two end sooner together than one after the other. The suite prints as it runs; the
 * synth's output follows it. Either failing fails `npm test`.
 */
function run(command: string, args: string[], captured: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: captured ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolve({ code: 1, output: `${output}${String(error)}\n` }));
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const [suite, synth] = await Promise.all([run('npx', ['vitest', 'run'], false), run('npm', ['run', 'synth'], true)]);
process.stdout.write(synth.output);
if (synth.code !== 0) console.error(`npm run synth failed (exit ${synth.code})`);
process.exitCode = suite.code !== 0 || synth.code !== 0 ? 1 : 0;
