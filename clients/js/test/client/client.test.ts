// The client's methods through the wire, against a stand (TGFAKE_URL, or tgfake from PATH): each test has a session
// of its own, and the test itself plays the bot with plain Bot API calls where one is needed.
import { beforeEach, describe, expect, test } from "vitest";

import { DEFAULT_BOT_TOKEN, SimAPIError, TgfakeAssertionError, TgfakeClient, userIdFor } from "tgfake";
import { session, tgfake } from "tgfake/vitest";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC",
  "base64",
);

interface Answer {
  ok: boolean;
  result?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  error_code?: number;
  description?: string;
}

/** The bot's side: one Bot API call to the test's session. */
async function bot(method: string, params: Record<string, unknown> = {}): Promise<Answer> {
  const resp = await fetch(`${session().url}/bot${DEFAULT_BOT_TOKEN}/${method}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(params),
  });
  return (await resp.json()) as Answer;
}

beforeEach(async () => {
  expect((await bot("getMe")).ok).toBe(true); // the bot exists in the session from its first call
});

describe("the person", () => {
  test("send writes in the private chat, or in a group", async () => {
    const sent = await tgfake.send("hello");
    expect(sent).toMatchObject({ chatId: 4242, messageId: 1 });
    expect(await tgfake.transcript()).toBe("[1] alice: hello\n");
    const bob = await tgfake.send("hi all", { user: "bob", chat: "group" });
    expect(bob.chatId).toBe(-100000004242);
    expect(await tgfake.transcript(bob.chatId)).toContain("bob: hi all");
    const updates = (await bot("getUpdates")).result as Array<{ message: { text: string; from: { id: number } } }>;
    expect(updates.map((u) => [u.message.text, u.message.from.id])).toEqual([
      ["hello", 4242],
      ["hi all", userIdFor("bob")],
    ]);
  });

  test("sendPhoto and sendAlbum give file ids the bot can get", async () => {
    const photo = await tgfake.sendPhoto(PNG, { caption: "a dot" });
    expect(photo.fileId).not.toBe("");
    const file = await bot("getFile", { file_id: photo.fileId });
    expect(file.ok).toBe(true);
    const album = await tgfake.sendAlbum([
      { type: "photo", data: PNG },
      { type: "photo", data: PNG, caption: "second" },
    ]);
    expect(album).toHaveLength(2);
    expect(album[0]!.mediaGroupId).not.toBe("");
    expect(album[1]!.mediaGroupId).toBe(album[0]!.mediaGroupId);
    expect((await tgfake.messages()).map((m) => m.kind)).toEqual(["photo", "photo", "photo"]);
  });

  test("tap answers a callback query the bot reads, pressButton a reply keyboard", async () => {
    const menu = await bot("sendMessage", {
      chat_id: 4242,
      text: "Pick",
      reply_markup: { inline_keyboard: [[{ text: "Go", callback_data: "go" }]] },
    });
    const tapped = await tgfake.tap("Go");
    expect(tapped.callbackQueryId).not.toBe("");
    await bot("sendMessage", { chat_id: 4242, text: "Yes?", reply_markup: { keyboard: [[{ text: "Yes" }]] } });
    expect((await tgfake.expectReply("Pick")).keyboard).toEqual([["Go"]]);
    expect((await tgfake.expectReply("Yes?")).replyKeyboard).toEqual([["Yes"]]);
    await tgfake.pressButton("Yes");
    const updates = (await bot("getUpdates")).result as Array<Record<string, any>>; // eslint-disable-line
    expect(updates[0]!.callback_query).toMatchObject({ data: "go", message: { message_id: menu.result.message_id } });
    expect(updates[0]!.callback_query.id).toBe(tapped.callbackQueryId);
    expect(updates[1]!.message.text).toBe("Yes");
  });

  test("share, vote, react, edit and delete", async () => {
    await tgfake.share({ location: { latitude: 1.5, longitude: 2.5 } });
    const poll = await bot("sendPoll", { chat_id: 4242, question: "Tea?", options: ["Yes", "No"], is_anonymous: false });
    const shown = await tgfake.expectReply();
    expect(shown.kind).toBe("poll");
    await tgfake.vote(poll.result.message_id, [shown.pollOption("No")]);
    const said = await tgfake.send("typo");
    await tgfake.edit(said.messageId, "fixed");
    await tgfake.react(poll.result.message_id, "👍");
    const gone = await tgfake.send("oops");
    await tgfake.delete(gone.messageId);
    const byId = new Map((await tgfake.messages()).map((m) => [m.messageId, m]));
    expect(byId.get(1)!.kind).toBe("location");
    expect(byId.get(poll.result.message_id)!.reactions).toEqual({ "👍": 1 });
    const options = (byId.get(poll.result.message_id)!.poll!.options as Array<{ voter_count: number }>).map((o) => o.voter_count);
    expect(options).toEqual([0, 1]);
    expect(byId.get(said.messageId)).toMatchObject({ text: "fixed", edited: true });
    expect(byId.get(gone.messageId)?.deleted ?? true).toBe(true);
  });

  test("pay: the bot's invoice, its pre-checkout answer, the invoice's outcome", async () => {
    const invoice = await bot("sendInvoice", {
      chat_id: 4242,
      title: "Tea",
      description: "A cup",
      payload: "tea-1",
      currency: "XTR",
      prices: [{ label: "Tea", amount: 5 }],
    });
    expect(invoice.ok).toBe(true);
    const paying = tgfake.pay(invoice.result.message_id);
    const updates = (await bot("getUpdates", { timeout: 5 })).result as Array<Record<string, any>>; // eslint-disable-line
    const query = updates.find((u) => u.pre_checkout_query)!.pre_checkout_query;
    expect(query).toMatchObject({ currency: "XTR", total_amount: 5, invoice_payload: "tea-1" });
    expect((await bot("answerPreCheckoutQuery", { pre_checkout_query_id: query.id, ok: true })).ok).toBe(true);
    expect(await paying).toMatchObject({ status: "paid" });
  });
  test("inline: the bot's answer to @bot query, and the result the person chooses", async () => {
    await tgfake.sim("POST", "bots/123456/inline", { enabled: true }); // BotFather's /setinline
    const asking = tgfake.inline("pizza");
    const updates = (await bot("getUpdates", { timeout: 5 })).result as Array<Record<string, any>>; // eslint-disable-line
    const query = updates.find((u) => u.inline_query)!.inline_query;
    expect(query.query).toBe("pizza");
    const results = [{ type: "article", id: "margherita", title: "Margherita", input_message_content: { message_text: "One Margherita" } }];
    expect((await bot("answerInlineQuery", { inline_query_id: query.id, results })).ok).toBe(true);
    const answer = await asking;
    expect((answer.results as Array<{ id: string }>).map((r) => r.id)).toEqual(["margherita"]);
    const chosen = await tgfake.choose("margherita");
    expect(chosen.chatId).toBe(4242);
    expect(await tgfake.transcript()).toContain("One Margherita");
  });
});

describe("the world", () => {
  test("createChat, join, promote, leave, and another bot", async () => {
    const club = await tgfake.createChat("Club", { members: ["bob"] });
    expect([club.type, club.title, club.statusOf("alice"), club.statusOf("bob")]).toEqual(["supergroup", "Club", "creator", "member"]);
    expect((await tgfake.join(club, { user: "carol" })).status).toBe("member");
    const promoted = await tgfake.promote(club, "bob", { title: "Boss", rights: { can_delete_messages: true } });
    expect(promoted.status).toBe("administrator");
    expect((await tgfake.leave(club, { user: "carol" })).status).toBe("left");
    const helper = await tgfake.addBot("helper_bot", { firstName: "Helper" });
    expect([helper.username, helper.token.startsWith(`${helper.id}:`)]).toEqual(["helper_bot", true]);
    const me = await fetch(`${session().url}/bot${helper.token}/getMe`).then((r) => r.json() as Promise<Answer>);
    expect(me.result).toMatchObject({ id: helper.id, username: "helper_bot", first_name: "Helper" });
  });

  test("a refused sim call throws SimAPIError with the stand's words", async () => {
    const refused = await tgfake.join(-1009999, { user: "bob" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SimAPIError);
    expect((refused as SimAPIError).status).toBe(404);
    expect((refused as SimAPIError).path).toBe("/sim/chats/-1009999/join");
    expect((refused as SimAPIError).error).toBe("chat -1009999 not found (create it with POST /sim/chats)");
    expect((refused as Error).message).toBe(
      "/sim/chats/-1009999/join: HTTP 404: chat -1009999 not found (create it with POST /sim/chats)",
    );
  });
});

describe("waiting and reading", () => {
  test("expectReply consumes replies in order and names what the bot said instead", async () => {
    await tgfake.send("hi");
    await bot("sendMessage", { chat_id: 4242, text: "Hello" });
    await bot("sendMessage", { chat_id: 4242, text: "How are you?" });
    expect((await tgfake.expectReply("Hello")).fromBot).toBe(true);
    const failed = await tgfake.expectReply("Bye", { timeout: 1_000 }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(TgfakeAssertionError);
    const message = (failed as Error).message;
    expect(message).toContain(`timed out waiting for the bot's next message to read "Bye" in chat 4242`);
    expect(message).toContain("; the bot's next message was: bot: How are you?");
    expect(message).toContain("--- transcript of chat 4242 ---\n[1] alice: hi\n[2] bot: Hello\n[3] bot: How are you?");
    expect(message).toContain("--- outbox (getUpdates omitted) ---\n#1 getMe -> 200");
    expect((await tgfake.expectReply(undefined, { containing: "are you" })).text).toBe("How are you?");
  });

  test("expectNoReply passes while the bot is quiet and fails on a further message", async () => {
    await tgfake.send("hi");
    await tgfake.expectNoReply({ within: 300 });
    await bot("sendMessage", { chat_id: 4242, text: "Surprise" });
    const failed = await tgfake.expectNoReply({ within: 300 }).catch((e: unknown) => e);
    expect((failed as Error).message).toMatch(/^the bot sent a further message: \[2\] "Surprise"/);
  });

  test("waitCall is held until the call, and names what it waited for at the timeout", async () => {
    const mark = await tgfake.count();
    const waiting = tgfake.waitCall("sendMessage", { since: mark, token: DEFAULT_BOT_TOKEN });
    await bot("sendMessage", { chat_id: 4242, text: "ping" });
    const [call] = await waiting;
    expect([call!.method, call!.params.text, call!.ok, call!.botId]).toEqual(["sendMessage", "ping", true, 123456]);
    expect(await tgfake.waitCall("sendPhoto", { timeout: 300, strict: false })).toEqual([]);
    const failed = await tgfake.waitCall("sendPhoto", { timeout: 300 }).catch((e: unknown) => e);
    expect((failed as Error).message).toMatch(/^timed out after 0\.3s waiting for 1 sendPhoto calls \(saw 0\)\n--- transcript/);
    expect((await tgfake.outbox("sendMessage")).map((c) => c.line())).toEqual([`#2 sendMessage -> 200  chat_id=4242, text=ping`]);
  });

  test("waitUntil re-checks after each call the bot makes", async () => {
    const seen = tgfake.waitUntil(async () => ((await tgfake.count("sendMessage")) >= 2 ? "two" : undefined));
    await bot("sendMessage", { chat_id: 4242, text: "one" });
    await bot("sendMessage", { chat_id: 4242, text: "two" });
    expect(await seen).toBe("two");
    const chat = await tgfake.chat(4242);
    expect(chat.chat_id).toBe(4242);
  });
});

describe("the stand", () => {
  test("a fault refuses the bot's call until cleared", async () => {
    const faults = await tgfake.fault("sendMessage", 403);
    expect(faults).toMatchObject([{ method: "sendmessage", code: 403 }]);
    expect(await bot("sendMessage", { chat_id: 4242, text: "x" })).toEqual({
      ok: false,
      error_code: 403,
      description: "Forbidden: bot was blocked by the user",
    });
    await tgfake.clearFaults();
    expect((await bot("sendMessage", { chat_id: 4242, text: "x" })).ok).toBe(true);
  });

  test("moveClock moves the session's clock, reset forgets the conversation", async () => {
    const before = await tgfake.call("get", "/sim/clock");
    await tgfake.moveClock(3600);
    const after = await tgfake.call("get", "/sim/clock");
    expect(Math.round(Number(after.unix) - Number(before.unix))).toBe(3600);
    await tgfake.send("hello");
    await tgfake.reset();
    expect(await tgfake.outbox()).toEqual([]);
    expect(await tgfake.transcript(4242)).toBe("");
  });

  test("sessions: a session's routes answer 404 once it is ended", async () => {
    const other = await tgfake.openSession("node-client-test");
    expect(other.url).toMatch(/\/s\/node-client-test$/);
    const client = new TgfakeClient(other.url);
    await client.send("elsewhere");
    expect(await tgfake.transcript(4242)).toBe(""); // the test's own session did not see it
    await tgfake.endSession(other.id);
    const gone = await client.send("late").catch((e: unknown) => e);
    expect([(gone as SimAPIError).status, (gone as SimAPIError).error]).toEqual([
      404,
      "session node-client-test not found (ended, expired or never created)",
    ]);
  });

  test("the model: script, journal, resetModel", async () => {
    await tgfake.script([{ match: "ping", answer: "pong" }]);
    const resp = await fetch(`${session().model_url}/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer x" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "ping" }] }),
    });
    const completion = (await resp.json()) as { choices: Array<{ message: { content: string } }> };
    expect(completion.choices[0]!.message.content).toBe("pong");
    expect(await tgfake.journal()).toHaveLength(1);
    await tgfake.resetModel();
    expect(await tgfake.journal()).toEqual([]);
  });
});
