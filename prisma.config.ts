import { defineConfig } from 'prisma/config';
import { createMigrateAdapter } from './src/db/prisma-migrate-adapter.js';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  adapter: async () => {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set (the run and test scripts set it for you)');
    return createMigrateAdapter(url);
  },
});
