import { fileURLToPath } from "node:url";

import { expect, test } from "vitest";

import { startBot, tgfake } from "tgfake/vitest";

const BOT = fileURLToPath(new URL("./bot.cjs", import.meta.url));

test("an assertion fails after a reply", async () => {
  await startBot(["node", BOT]);
  await tgfake.send("hello there");
  await tgfake.expectReply("Hi");
  expect("the reply").toBe("another reply");
});

test("a bot that exits before its first call", async () => {
  await startBot(["node", BOT], { env: { EXIT_AT_ONCE: "1" } });
});
