module.exports = { testMatch: ["**/*.fails.cjs"], setupFilesAfterEnv: ["./jest.setup.cjs"], testTimeout: 60_000 };
