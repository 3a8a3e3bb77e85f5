import { beforeEach, expect, test } from "vitest";

import { tgfake } from "tgfake/vitest";

import { start } from "./start.js";

beforeEach(start);

test("/start answers with a keyboard", async () => {
  await tgfake.send("/start");
  const reply = await tgfake.expectReply("Tap to count.");
  expect(reply.keyboard).toEqual([["Count"]]);
});

test("a tap counts by editing the message", async () => {
  await tgfake.send("/start");
  const menu = await tgfake.expectReply("Tap to count.");
  await tgfake.tap("Count");
  // A person taps again once the menu shows the first count (the bot edits after it answers the tap).
  await tgfake.waitUntil(async () => (await tgfake.messages()).find((m) => m.messageId === menu.messageId && m.text === "Count: 1"), {
    what: "the menu to read Count: 1",
  });
  await tgfake.tap("Count");
  const edited = await tgfake.waitUntil(async () => (await tgfake.messages()).find((m) => m.messageId === menu.messageId && m.text === "Count: 2"), {
    what: "the menu to read Count: 2",
  });
  expect(edited.edited).toBe(true);
  expect((await tgfake.outbox("answerCallbackQuery")).map((c) => c.params.text)).toEqual(["Counted 1", "Counted 2"]);
});

test("a flood-control refusal is waited out and the reply sent again", async () => {
  await tgfake.fault("sendMessage", 429, { retryAfter: 1, times: 1 });
  await tgfake.send("/start");
  await tgfake.expectReply("Tap to count.");
  const sends = await tgfake.outbox("sendMessage");
  expect(sends.map((c) => c.status)).toEqual([429, 200]);
  expect(sends[0]!.response).toMatchObject({ ok: false, error_code: 429, parameters: { retry_after: 1 } });
});
