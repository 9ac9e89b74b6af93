import { spawn } from 'node:child_process';
import { stopProcess, waitFor, portInUse } from './processes.js';

/** stripe-mock (Stripe's official API mock) on 127.0.0.1:<port>, HTTP. */
export async function startStripeMock(binary: string, port: number, httpsPort: number): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  // Both listeners get explicit ports: the HTTPS default (12112) would collide between runs.
  const child = spawn(binary, ['-http-addr', `127.0.0.1:${port}`, '-https-addr', `127.0.0.1:${httpsPort}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2_000)));
  await waitFor('stripe-mock', async () => {
    if (child.exitCode !== null) throw new Error(`stripe-mock exited: ${stderr}`);
    if (!(await portInUse(port))) throw new Error('not listening yet');
  }, 30_000, 100);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopProcess(child) };
}
