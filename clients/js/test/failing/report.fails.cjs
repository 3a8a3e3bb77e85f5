const path = require("node:path");

const { startBot, tgfake } = require("tgfake/jest");

const BOT = path.join(__dirname, "bot.cjs");

test("an assertion fails after a reply", async () => {
  await startBot(["node", BOT]);
  await tgfake.send("hello there");
  await tgfake.expectReply("Hi");
  expect("the reply").toBe("another reply");
});

test("a wait for a reply that does not come", async () => {
  await startBot(["node", BOT]);
  await tgfake.send("hello there");
  await tgfake.expectReply("Bye", { timeout: 3000 });
});
