import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'web',
    root: __dirname,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    passWithNoTests: true,
  },
});
