// Runs `prisma generate` offline. Without DATABASE_URL, Prisma 6.19's generate falls back to
// fetching a native query engine from the internet (which the driver-adapter client never uses);
// any URL avoids that. Generation never connects to it.
import { execFileSync } from 'node:child_process';

execFileSync('prisma', ['generate'], {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL || 'postgresql://generate@localhost:5432/unused' },
});
