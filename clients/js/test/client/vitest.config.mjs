import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { include: ["*.test.ts"], setupFiles: ["./setup.ts"], testTimeout: 60_000, hookTimeout: 90_000 },
});
