// The client of a stand's sim API: the person, the world, waiting and reading, the stand, sessions and the model.
// The Python client's methods (tgfake/testing/) with the same names in camelCase and the same semantics. Every wait
// is held by the stand (GET /sim/wait): a condition is re-checked after each call the bot makes, nothing polls.
import { check, Http } from "./http.js";
import type { ChatIn, FaultIn, Rule, SessionAnswer, SimPaths } from "./generated/sim.js";
import {
  Call,
  ChatInfo,
  ChatMessage,
  DEFAULT_GROUP_ID,
  DEFAULT_TIMEOUT,
  QUIET_PERIOD,
  SERVICE,
  SETTLE,
  person,
  sent,
  type BotInfo,
  type ChatRef,
  type Membership,
  type Person,
  type Sent,
  type Who,
} from "./values.js";

type Json = Record<string, unknown>;

/** The longest wait the stand holds one request for (GET /sim/wait's bound), in ms. */
const MAX_HELD = 60_000;
/** How long expectNoReply first waits for the bot to poll again (it has then taken the update), in ms. */
const POLL_GRACE = 1_000;

/** A wait ran out or the bot did something else: the message carries the transcript and the outbox. */
export class TgfakeAssertionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TgfakeAssertionError";
  }
}

const seconds = (ms: number) => String(Math.max(ms, 0) / 1000);

export interface Acting {
  /** Who acts: a name (`"alice"`, the default), a user id or a Person. */
  user?: Who;
  /** Where: their private chat (default), `"group"`, a chat id or a chat made with `createChat`. */
  chat?: ChatRef;
}

export interface Writing extends Acting {
  /** Mention the bot (`@bot text`), as a person does to reach a bot with privacy mode in a group. */
  mention?: boolean;
  /** Reply to this message. */
  replyTo?: number;
}

export interface FileOptions extends Writing {
  name?: string;
  caption?: string;
  /** The kind's own fields: `duration`, `width`/`height`, `length`, `performer`/`title`, `emoji`. */
  fields?: Json;
}

export interface ReplyOptions {
  /** The bot's message contains this. */
  containing?: string;
  /** The chat read (default: the last one a person acted in). */
  chat?: number | { id: number };
  /** In milliseconds (default 10 s). */
  timeout?: number;
  /** `"service"` for joins, pins, removals; `"any"` for every message; default: messages a person reads. */
  kind?: string;
}

export interface WaitCallOptions {
  count?: number;
  /** In milliseconds. */
  timeout?: number;
  /** Only calls after this outbox seq. */
  since?: number;
  /** At the timeout throw (default) or answer `[]`. */
  strict?: boolean;
  /** Only calls made with this bot token. */
  token?: string;
}

export interface ClientOptions {
  /** How long waits last unless told otherwise, in milliseconds (10 s). */
  timeout?: number;
}

/** The account a membership route names: a person (name, id, Person) or a bot (`@username` or id). */
export type Account = Who;

const ref = (who: Account): string | number => (typeof who === "object" ? who.username || who.userId : who);
const chatId = (chat: number | { id: number }): number => (typeof chat === "number" ? chat : chat.id);

function target(chat: ChatRef | undefined, who: Person): [number, string] {
  if (chat === undefined || chat === "private") return [who.userId, "private"];
  if (chat === "group") return [DEFAULT_GROUP_ID, "group"];
  if (chat === "supergroup") return [DEFAULT_GROUP_ID, "supergroup"];
  if (typeof chat === "object") {
    const type = "type" in chat && typeof chat.type === "string" && chat.type ? chat.type : chat.id > 0 ? "private" : "group";
    return [chat.id, type];
  }
  if (typeof chat !== "number") throw new Error(`chat must be an id, "private", "group" or "supergroup", not ${JSON.stringify(chat)}`);
  return [chat, chat > 0 ? "private" : "group"];
}

export class TgfakeClient {
  readonly http: Http;
  /** How long waits last unless told otherwise, in milliseconds. */
  timeout: number;
  private lastChat: number | undefined;
  private lastInline = "";
  private readonly cursor = new Map<number, number>();

  /** `url` is the stand's origin, or a session's (`http://127.0.0.1:18790/s/1`). */
  constructor(url: string, options: ClientOptions = {}) {
    this.http = new Http(url);
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT;
  }

  get url(): string {
    return this.http.url;
  }

  /** Forget what the client knows of the conversation (after a reset, or on another stand). */
  forget(): void {
    this.lastChat = undefined;
    this.lastInline = "";
    this.cursor.clear();
  }

  private chatFor(chat?: number | { id: number }): number {
    if (chat !== undefined) return chatId(chat);
    return this.lastChat ?? person("alice").userId;
  }

  private sender(user: Who = "alice", chat?: ChatRef, mention = false, replyTo?: number): [number, Json] {
    const who = person(user);
    const [id, type] = target(chat, who);
    const body: Json = { user_id: who.userId, chat_id: id, chat_type: type };
    if (who.username) body.username = who.username;
    if (who.firstName) body.first_name = who.firstName;
    if (mention) body.mention = true;
    if (replyTo !== undefined) body.reply_to_message_id = replyTo;
    return [id, body];
  }

  private async post(path: string, body?: unknown, timeout?: number): Promise<Json> {
    const got = await this.http.raw("POST", path, { body, timeout });
    check(got, path);
    return (got.json ?? {}) as Json;
  }

  private async act(path: string, fields: Json, opts: Acting): Promise<Sent> {
    const [id, body] = this.sender(opts.user, opts.chat);
    const got = await this.post(path, { ...body, ...fields });
    this.lastChat = id;
    return sent(id, got);
  }

  // ------------------------------------------------------------------------------------------------ the person

  /** A person writes `text` (`POST /sim/message`); `chat: "group"` writes in the default group. */
  async send(text: string, opts: Writing = {}): Promise<Sent> {
    const [id, body] = this.sender(opts.user, opts.chat, opts.mention, opts.replyTo);
    const got = await this.http.call("post", "/sim/message", { body: { ...body, text } });
    this.lastChat = id;
    return sent(id, got);
  }

  /** A person sends a file of a `kind` (`photo`, `document`, `video`, `audio`, `voice`, `animation`, `sticker`,
   * `video_note`; `POST /sim/file`): its bytes, or the `file_id` (a string) of a file the stand holds. */
  async sendFile(kind: string, data: Uint8Array | string, opts: FileOptions = {}): Promise<Sent> {
    const [id, body] = this.sender(opts.user, opts.chat, opts.mention, opts.replyTo);
    body[kind] =
      typeof data === "string" ? { file_id: data } : { name: opts.name ?? "", data: Buffer.from(data).toString("base64") };
    Object.assign(body, opts.fields ?? {});
    if (opts.caption) body.caption = opts.caption;
    const got = await this.post("/sim/file", body);
    this.lastChat = id;
    return sent(id, got);
  }

  /** A person sends a PNG, JPEG or GIF. */
  sendPhoto(data: Uint8Array | string, opts: FileOptions = {}): Promise<Sent> {
    return this.sendFile("photo", data, opts);
  }

  /** A person sends any file as a document (its `mime_type` sniffed from the bytes). */
  sendDocument(data: Uint8Array | string, opts: FileOptions = {}): Promise<Sent> {
    return this.sendFile("document", data, opts);
  }

  /** A person sends 2-10 files as one album (`POST /sim/album`): `{ type, data, name?, caption?, ...fields }`. */
  async sendAlbum(
    items: Array<{ type: string; data: Uint8Array; name?: string; caption?: string; [field: string]: unknown }>,
    opts: Writing = {},
  ): Promise<Sent[]> {
    const [id, body] = this.sender(opts.user, opts.chat, opts.mention, opts.replyTo);
    body.items = items.map(({ data, ...rest }) => ({ name: "", ...rest, data: Buffer.from(data).toString("base64") }));
    const got = await this.post("/sim/album", body);
    this.lastChat = id;
    const group = String(got.media_group_id ?? "");
    return ((got.messages as Json[]) ?? []).map((m) => sent(id, m, { mediaGroupId: group }));
  }

  /** A person taps the inline button `label` on the newest message that has it (`POST /sim/callback`). */
  async tap(
    label?: string,
    opts: { user?: Who; chat?: number | { id: number }; messageId?: number; data?: string } = {},
  ): Promise<Sent> {
    const who = person(opts.user ?? "alice");
    const id = opts.chat !== undefined ? chatId(opts.chat) : (this.lastChat ?? who.userId);
    const body: Json = { chat_id: id, user_id: who.userId };
    if (who.username) body.username = who.username;
    if (who.firstName) body.first_name = who.firstName;
    if (label !== undefined) body.label = label;
    if (opts.data !== undefined) body.data = opts.data;
    if (opts.messageId !== undefined) body.message_id = opts.messageId;
    const got = await this.post("/sim/callback", body);
    this.lastChat = id;
    return sent(id, got);
  }

  /** A person presses `label` on their reply keyboard (`POST /sim/reply-button`); `shares` is what the button
   * shares (`latitude`/`longitude`, `users`, `chat`, `poll`, `data`...). */
  pressButton(label: string, opts: Acting & { shares?: Json } = {}): Promise<Sent> {
    return this.act("/sim/reply-button", { label, ...(opts.shares ?? {}) }, opts);
  }

  /** The Python client's name for {@link pressButton}. */
  press(label: string, opts: Acting & { shares?: Json } = {}): Promise<Sent> {
    return this.pressButton(label, opts);
  }

  /** A person sends a location, venue, contact, dice or poll (`POST /sim/share`):
   * `share({ location: { latitude: 1.5, longitude: 2.5 } })`. */
  share(content: Json, opts: Acting = {}): Promise<Sent> {
    return this.act("/sim/share", content, opts);
  }

  /** A person votes in the poll of `messageId` (`POST /sim/vote`); no options retracts the vote. */
  vote(messageId: number, options: number[], opts: Acting = {}): Promise<Sent> {
    return this.act("/sim/vote", { message_id: messageId, options }, opts);
  }

  /** A person edits their message (`POST /sim/edit`): the bots that saw it get `edited_message`. */
  edit(messageId: number, text: string, opts: Acting = {}): Promise<Sent> {
    return this.act("/sim/edit", { message_id: messageId, text }, opts);
  }

  /** A person deletes a message (`POST /sim/delete`). */
  delete(messageId: number, opts: Acting = {}): Promise<Sent> {
    return this.act("/sim/delete", { message_id: messageId }, opts);
  }

  /** A person sets their reactions on a message (`POST /sim/react`); none clears them. */
  react(messageId: number, emoji: string | string[], opts: Acting = {}): Promise<Sent> {
    return this.act("/sim/react", { message_id: messageId, emoji: typeof emoji === "string" ? [emoji] : emoji }, opts);
  }

  /** A person forwards a message (`POST /sim/forward`): `{ from_chat_id, message_id }` or `{ text, origin }`. */
  forward(source: Json, opts: Acting = {}): Promise<Sent> {
    return this.act("/sim/forward", source, opts);
  }

  /** A person pays an invoice (`POST /sim/pay`): `messageId` in the chat (none: the newest invoice there) or an
   * invoice `link`; `form` holds `name`, `phone_number`, `email`, `shipping_address`. The invoice's outcome:
   * `{ status: "paid", ... }`, `declined`, `shipping_refused` or `timeout`. */
  async pay(
    messageId?: number,
    opts: Acting & { link?: string; bot?: string | number; tip?: number; shippingOptionId?: string; timeout?: number; form?: Json } = {},
  ): Promise<Json> {
    const [id, body] = this.sender(opts.user, opts.chat);
    delete body.chat_type;
    if (messageId !== undefined) body.message_id = messageId;
    if (opts.link) body.link = opts.link;
    if (opts.bot !== undefined) body.bot = opts.bot;
    if (opts.tip) body.tip = opts.tip;
    if (opts.shippingOptionId) body.shipping_option_id = opts.shippingOptionId;
    const wait = opts.timeout ?? this.timeout;
    Object.assign(body, opts.form ?? {}, { timeout: wait / 1000 });
    const got = await this.post("/sim/pay", body, 2 * wait);
    this.lastChat = id;
    return got;
  }

  private async answered(queryId: string, wait: number): Promise<Json> {
    this.lastInline = queryId;
    const got = await this.http.call("get", "/sim/inline", {
      query: { inline_query_id: queryId, timeout: Math.min(wait, MAX_HELD) / 1000 },
      timeout: wait,
    });
    if (!got.answered) throw new TgfakeAssertionError(`the bot did not answer inline query ${queryId} within ${seconds(wait)} s`);
    return got;
  }

  /** A person types `@bot query` in a chat (`POST /sim/inline`); the bot's answer (`results`, `next_offset`...)
   * once it comes (`GET /sim/inline`, held by the stand). */
  async inline(query: string, opts: Acting & { bot?: string | number; offset?: string; timeout?: number } = {}): Promise<Json> {
    const [, body] = this.sender(opts.user, opts.chat);
    Object.assign(body, { query, offset: opts.offset ?? "" });
    if (opts.bot !== undefined) body.bot = opts.bot;
    const asked = await this.post("/sim/inline", body);
    return this.answered(String(asked.inline_query_id), opts.timeout ?? this.timeout);
  }

  /** The person scrolls the newest inline query's results: the next page. */
  async inlineMore(opts: { timeout?: number } = {}): Promise<Json> {
    const asked = await this.post("/sim/inline/more", { inline_query_id: this.lastInline });
    return this.answered(String(asked.inline_query_id), opts.timeout ?? this.timeout);
  }

  /** The person picks a result of the newest inline query (`POST /sim/inline/choose`): sent via the bot. */
  async choose(resultId: string): Promise<Sent> {
    const got = await this.post("/sim/inline/choose", { result_id: resultId, inline_query_id: this.lastInline });
    const id = Number(got.chat_id);
    this.lastChat = id;
    return sent(id, got);
  }

  // ------------------------------------------------------------------------------------------------ the world

  /** A `group`, `supergroup` (`forum: true`: a forum) or `channel` (`POST /sim/chats`) made by `creator`, with
   * `members` and `admins` (people by name or id, bots by `@username`). Bots put in it get `my_chat_member`. */
  async createChat(
    title = "",
    opts: {
      type?: "group" | "supergroup" | "channel";
      members?: Account[];
      admins?: Account[];
      creator?: Account;
      forum?: boolean;
      username?: string;
      id?: number;
      description?: string;
      joinByRequest?: boolean;
      linkedChatId?: number;
    } = {},
  ): Promise<ChatInfo> {
    const body: ChatIn = {
      type: opts.type ?? "supergroup",
      title,
      creator: ref(opts.creator ?? "alice"),
      members: (opts.members ?? []).map(ref),
      admins: (opts.admins ?? []).map(ref),
    };
    if (opts.forum) body.is_forum = true;
    if (opts.username) body.username = opts.username;
    if (opts.id) body.id = opts.id;
    if (opts.description) body.description = opts.description;
    if (opts.joinByRequest) body.join_by_request = true;
    if (opts.linkedChatId) body.linked_chat_id = opts.linkedChatId;
    const got = await this.http.call("post", "/sim/chats", { body });
    return new ChatInfo(got.chat as unknown as Json);
  }

  private async member(chat: number | { id: number }, verb: string, who: Account, by?: Account, fields: Json = {}): Promise<Membership> {
    const body: Json = { user: ref(who) };
    for (const [k, v] of Object.entries(fields)) {
      if (v !== undefined && v !== "" && v !== 0 && !(typeof v === "object" && v && !Object.keys(v).length)) body[k] = v;
    }
    if (by !== undefined) body.by = ref(by);
    const got = await this.post(`/sim/chats/${chatId(chat)}/${verb}`, body);
    return { status: String(got.status ?? ""), chat: new ChatInfo((got.chat ?? {}) as Json) };
  }

  /** A person (or a bot) joins a chat, by an `inviteLink` if given. */
  join(chat: number | { id: number }, opts: { user?: Account; inviteLink?: string } = {}): Promise<Membership> {
    return this.member(chat, "join", opts.user ?? "alice", undefined, { invite_link: opts.inviteLink });
  }

  /** A member leaves the chat. */
  leave(chat: number | { id: number }, opts: { user?: Account } = {}): Promise<Membership> {
    return this.member(chat, "leave", opts.user ?? "alice");
  }

  /** `by` (the owner when none) adds a person or a bot to the chat. */
  add(chat: number | { id: number }, who: Account, opts: { by?: Account } = {}): Promise<Membership> {
    return this.member(chat, "add", who, opts.by);
  }

  /** `by` bans a member, until `untilDate`. */
  ban(chat: number | { id: number }, who: Account, opts: { by?: Account; untilDate?: number } = {}): Promise<Membership> {
    return this.member(chat, "remove", who, opts.by, { until_date: opts.untilDate });
  }

  /** `by` removes a member who may come back. */
  remove(chat: number | { id: number }, who: Account, opts: { by?: Account } = {}): Promise<Membership> {
    return this.member(chat, "remove", who, opts.by, { ban: false });
  }

  /** `by` makes a member an administrator with `rights` (`{ can_delete_messages: true }`) and a custom `title`. */
  promote(
    chat: number | { id: number },
    who: Account,
    opts: { by?: Account; title?: string; rights?: Record<string, boolean> } = {},
  ): Promise<Membership> {
    return this.member(chat, "promote", who, opts.by, { rights: opts.rights, custom_title: opts.title });
  }

  /** `by` makes an administrator a plain member again. */
  demote(chat: number | { id: number }, who: Account, opts: { by?: Account } = {}): Promise<Membership> {
    return this.member(chat, "demote", who, opts.by);
  }

  /** `by` restricts a member of a supergroup to `permissions` (`{ can_send_messages: false }`) until `untilDate`. */
  restrict(
    chat: number | { id: number },
    who: Account,
    opts: { by?: Account; untilDate?: number; permissions?: Record<string, boolean> } = {},
  ): Promise<Membership> {
    return this.member(chat, "restrict", who, opts.by, { permissions: opts.permissions, until_date: opts.untilDate });
  }

  /** Another bot on the stand, as BotFather makes it (`POST /sim/bots`); start its process with the `token`. */
  async addBot(
    username = "",
    opts: {
      firstName?: string;
      token?: string;
      id?: number;
      canJoinGroups?: boolean;
      canReadAllGroupMessages?: boolean;
      supportsInlineQueries?: boolean;
      inlineFeedback?: number;
    } = {},
  ): Promise<BotInfo> {
    const body: Json = {
      can_join_groups: opts.canJoinGroups ?? true,
      can_read_all_group_messages: opts.canReadAllGroupMessages ?? false,
      supports_inline_queries: opts.supportsInlineQueries ?? false,
      inline_feedback: opts.inlineFeedback ?? 0,
    };
    if (username) body.username = username;
    if (opts.firstName) body.first_name = opts.firstName;
    if (opts.token) body.token = opts.token;
    if (opts.id) body.id = opts.id;
    const got = await this.http.call("post", "/sim/bots", { body });
    const me = got.bot;
    return { id: Number(me.id), username: String(me.username), token: String(got.token), firstName: String(me.first_name ?? ""), raw: got };
  }

  /** Any sim route: `sim("POST", "/sim/chats/-1001/join-request", { user: "bob" })` (`chats/...` reads as
   * `/sim/chats/...`). The JSON answer (text when not JSON); a status outside `accept` throws SimAPIError. */
  async sim(verb: string, path: string, body?: unknown, opts: { query?: Json; accept?: number[]; timeout?: number } = {}): Promise<unknown> {
    const full = "/" + path.replace(/^\/+/, "");
    const route = full.startsWith("/sim/") ? full : "/sim" + full;
    const got = await this.http.raw(verb, route, { body, query: opts.query, timeout: opts.timeout });
    check(got, route, opts.accept);
    return got.json;
  }

  /** The typed call of any sim route, by the stand's OpenAPI document (`call("get", "/sim/state")`). */
  call: Http["call"] = (verb, path, init) => this.http.call(verb, path, init);

  // ------------------------------------------------------------------------------------------------ reading

  /** The bot's recorded calls, oldest first (`GET /sim/outbox`). */
  async outbox(method?: string, opts: { since?: number } = {}): Promise<Call[]> {
    const got = await this.http.call("get", "/sim/outbox", { query: { method, since: opts.since } });
    return (got.calls ?? []).map((c) => new Call(c));
  }

  /** How many calls (of `method`) the outbox holds. */
  async count(method?: string): Promise<number> {
    const got = await this.http.call("get", "/sim/outbox/count", { query: { method } });
    return Number(got.count);
  }

  /** The chat's JSON view (`GET /sim/chat/{id}`): the last chat a person acted in unless named. */
  async chat(chat?: number | { id: number }): Promise<Json> {
    return (await this.http.call("get", "/sim/chat/{id}", { params: { id: this.chatFor(chat) } })) as Json;
  }

  /** The chat's messages, oldest first. */
  async messages(chat?: number | { id: number }): Promise<ChatMessage[]> {
    const view = await this.chat(chat);
    return ((view.messages as Json[]) ?? []).map((m) => new ChatMessage(m));
  }

  /** The chat as text (`GET /sim/chat/{id}?format=text`). */
  async transcript(chat?: number | { id: number }): Promise<string> {
    const path = `/sim/chat/${this.chatFor(chat)}`;
    const got = await this.http.raw("GET", path, { query: { format: "text" } });
    check(got, path);
    return got.text;
  }

  /** `GET /sim/state`: the bot, the people, the chats, the faults. */
  async state(): Promise<Json> {
    return (await this.http.call("get", "/sim/state")) as Json;
  }

  /** The transcript and the outbox's tail (getUpdates omitted), as failures show them. */
  async evidence(chat?: number | { id: number }): Promise<string> {
    const parts: string[] = [];
    try {
      const text = await this.transcript(chat);
      parts.push(`--- transcript of chat ${this.chatFor(chat)} ---\n${text.trimEnd()}`);
      const calls = (await this.outbox()).filter((c) => c.method.toLowerCase() !== "getupdates" || !c.ok).slice(-30);
      parts.push("--- outbox (getUpdates omitted) ---\n" + calls.map((c) => c.line()).join("\n"));
    } catch (e) {
      parts.push(`(could not read the stand: ${e instanceof Error ? e.message : String(e)})`);
    }
    return parts.join("\n");
  }

  // ------------------------------------------------------------------------------------------------ waiting

  /** Held by the stand until `count` calls of `method` (any when none; made with `token` when given) are in the
   * outbox (`GET /sim/wait`); at the timeout an AssertionError with the transcript and outbox, or `[]` when not
   * `strict`. */
  async waitCall(method?: string, opts: WaitCallOptions = {}): Promise<Call[]> {
    const t = Math.min(opts.timeout ?? this.timeout, MAX_HELD);
    const query = { method, count: opts.count ?? 1, timeout: t / 1000, since: opts.since, token: opts.token || undefined };
    const got = await this.http.raw("GET", "/sim/wait", { query, timeout: t });
    check(got, "/sim/wait", [200, 408]);
    const json = (got.json ?? {}) as Json;
    if (got.status === 408) {
      if (opts.strict === false) return [];
      throw new TgfakeAssertionError(`${String(json.error ?? "timed out")}\n${await this.evidence()}`);
    }
    return ((json.calls as Json[]) ?? []).map((c) => new Call(c));
  }

  /** Park until the bot makes any call after `since`: the new high mark and whether every new call was a
   * getUpdates (an idle bot's poll); undefined at the deadline. */
  private async nextCall(since: number, deadline: number): Promise<[number, boolean] | undefined> {
    const remaining = Math.min(deadline - Date.now(), MAX_HELD);
    if (remaining <= 0) return undefined;
    const got = await this.http.raw("GET", "/sim/wait", { query: { count: 1, since, timeout: remaining / 1000 }, timeout: remaining });
    check(got, "/sim/wait", [200, 408]);
    const calls = got.status === 200 ? (((got.json as Json).calls as Json[]) ?? []) : [];
    if (!calls.length) return got.status === 408 && Date.now() < deadline ? [since, true] : undefined;
    const polls = calls.every((c) => String(c.method ?? "").toLowerCase() === "getupdates");
    return [Math.max(since, ...calls.map((c) => Number(c.seq ?? 0))), polls];
  }

  /** Re-run `check` after every call the bot makes until it returns something other than undefined; fail at the
   * deadline. With `wrong()` (the bot already did something else), fail once the bot has been quiet for 2 s. */
  async waitUntil<T>(
    check: () => T | undefined | Promise<T | undefined>,
    opts: { timeout?: number; what?: string; wrong?: () => boolean; seen?: () => Promise<string> } = {},
  ): Promise<T> {
    const t = opts.timeout ?? this.timeout;
    const deadline = Date.now() + t;
    let settle: number | undefined;
    let mark = await this.count();
    for (;;) {
      const got = await check();
      if (got !== undefined) return got;
      const wrongNow = opts.wrong?.() ?? false;
      settle = wrongNow ? (settle ?? Date.now() + SETTLE) : undefined;
      const next = await this.nextCall(mark, Math.min(deadline, settle ?? deadline));
      if (next === undefined) {
        const last = await check();
        if (last !== undefined) return last;
        const instead = opts.seen ? await opts.seen() : "";
        const within = settle !== undefined && settle < deadline ? "" : ` within ${seconds(t)} s`;
        throw new TgfakeAssertionError(`timed out waiting for ${opts.what ?? "a condition"}${within}${instead}\n${await this.evidence()}`);
      }
      const [high, polls] = next;
      mark = high;
      if (!polls) settle = undefined;
    }
  }

  private async nextReply(chat: number, kind?: string): Promise<[ChatMessage | undefined, ChatMessage | undefined]> {
    const seen = this.cursor.get(chat) ?? 0;
    let skipped: ChatMessage | undefined;
    for (const m of await this.messages(chat)) {
      if (!m.fromBot || m.deleted || m.messageId <= seen) continue;
      if (kind === "any" || (kind !== undefined ? m.kind === kind : m.kind !== SERVICE)) return [m, skipped];
      skipped ??= m;
    }
    return [undefined, skipped];
  }

  private async lineOf(chat: number, messageId: number): Promise<string> {
    const prefix = `[${messageId}] `;
    const line = (await this.transcript(chat)).split("\n").find((l) => l.startsWith(prefix));
    return line ? line.slice(prefix.length) : "";
  }

  /** The bot's next message in the chat (the last one a person acted in) that a person reads, once it matches;
   * consumed, so the next call sees the one after. Service messages are passed over unless `kind` asks. */
  async waitForReply(opts: ReplyOptions & { text?: string } = {}): Promise<ChatMessage> {
    const chat = this.chatFor(opts.chat);
    let found: ChatMessage | undefined;
    let passed: ChatMessage | undefined;
    const check = async () => {
      const [m, skipped] = await this.nextReply(chat, opts.kind);
      found = m;
      passed = skipped;
      if (m === undefined) return undefined;
      if (opts.text !== undefined && m.body !== opts.text) return undefined;
      if (opts.containing !== undefined && !m.body.includes(opts.containing)) return undefined;
      return m;
    };
    const seen = async () => {
      if (found) return `; the bot's next message was: ${await this.lineOf(chat, found.messageId)}`;
      if (passed) {
        const what = passed.kind === SERVICE ? "a service message" : `a ${passed.kind} message`;
        return `; the bot's next message was ${what}: ${await this.lineOf(chat, passed.messageId)}`;
      }
      return "; the bot sent no message";
    };
    let want = opts.kind === undefined || opts.kind === "any" ? "the bot's next message" : `the bot's next ${opts.kind} message`;
    if (opts.text !== undefined) want += ` to read ${JSON.stringify(opts.text)}`;
    if (opts.containing !== undefined) want += ` to contain ${JSON.stringify(opts.containing)}`;
    const got = await this.waitUntil(check, { timeout: opts.timeout, what: `${want} in chat ${chat}`, wrong: () => found !== undefined, seen });
    this.cursor.set(chat, got.messageId);
    return got;
  }

  /** Assert the bot's next message a person reads says `text` (or contains `containing`); else fail naming what it
   * sent, with the chat's transcript and the outbox. */
  expectReply(text?: string, opts: ReplyOptions = {}): Promise<ChatMessage> {
    return this.waitForReply({ ...opts, text });
  }

  /** Assert the bot posts nothing new a person reads in the chat for `within` ms (`kind: "any"`: not even a
   * service message). */
  async expectNoReply(opts: { chat?: number | { id: number }; within?: number; kind?: string } = {}): Promise<void> {
    const chat = this.chatFor(opts.chat);
    // first let the bot take what it was sent: the stand answers once a getUpdates is held again
    await this.http.raw("GET", "/sim/wait", { query: { polling: 1, timeout: POLL_GRACE / 1000 }, timeout: POLL_GRACE });
    const deadline = Date.now() + (opts.within ?? QUIET_PERIOD);
    let mark = await this.count();
    for (;;) {
      const [m] = await this.nextReply(chat, opts.kind);
      if (m) throw new TgfakeAssertionError(`the bot sent a further message: [${m.messageId}] ${JSON.stringify(m.body)}\n${await this.evidence(chat)}`);
      const next = await this.nextCall(mark, deadline);
      if (next === undefined) return;
      mark = next[0];
    }
  }

  // ------------------------------------------------------------------------------------------------ the stand

  /** Schedule a refusal: `fault("sendMessage", 429, { retryAfter: 1, times: 1 })` (`POST /sim/fault`). */
  async fault(
    method = "*",
    code = 500,
    opts: { description?: string; retryAfter?: number; times?: number; contains?: string } = {},
  ): Promise<Json[]> {
    const body: FaultIn = { method, code };
    if (opts.description !== undefined) body.description = opts.description;
    if (opts.retryAfter !== undefined) body.retry_after = opts.retryAfter;
    if (opts.times !== undefined) body.times = opts.times;
    if (opts.contains !== undefined) body.contains = opts.contains;
    const got = await this.http.call("post", "/sim/fault", { body });
    return (got.faults ?? []) as unknown as Json[];
  }

  /** Drop the scheduled faults (of `method`). */
  async clearFaults(method?: string): Promise<void> {
    if (method === undefined) await this.http.call("delete", "/sim/fault");
    else await this.http.call("post", "/sim/fault", { body: { method, clear: true } });
  }

  /** Forget the conversation (`POST /sim/reset`; the model's state too when it is served). */
  async reset(): Promise<void> {
    await this.http.call("post", "/sim/reset");
    this.forget();
  }

  /** Move this stand's (session's) clock by `advance` seconds, or `to` a Unix time (`POST /sim/clock`). */
  async moveClock(advance?: number, opts: { to?: number } = {}): Promise<Json> {
    const body = opts.to === undefined ? { advance: advance ?? 0 } : { set: opts.to };
    return (await this.http.call("post", "/sim/clock", { body })) as Json;
  }

  /** A new session on this stand (`POST /sim/sessions`): its `id` and base URLs (`url`, `model_url`...). */
  openSession(name?: string): Promise<SessionAnswer> {
    return this.http.call("post", "/sim/sessions", { body: name ? { id: name } : undefined });
  }

  /** End a session (`DELETE /sim/sessions/{id}`): its held polls answer, its routes then 404. */
  async endSession(id: string): Promise<void> {
    await this.http.call("delete", "/sim/sessions/{id}", { params: { id } });
  }

  // ------------------------------------------------------------------------------------------------ the model

  /** Replace the scripted model's rules (`PUT /sim/llm/script`): a list of rules, or JSON text. */
  async script(rules: Rule[] | string): Promise<void> {
    const got =
      typeof rules === "string"
        ? await this.http.raw("PUT", "/sim/llm/script", { rawBody: rules })
        : await this.http.raw("PUT", "/sim/llm/script", { body: rules });
    check(got, "/sim/llm/script");
  }

  /** The model's journal: every request it answered, oldest first (`GET /sim/llm/log`). */
  async journal(): Promise<Json[]> {
    const got = await this.http.call("get", "/sim/llm/log");
    return (got.entries ?? []) as unknown as Json[];
  }

  /** Forget the model's journal and state (`POST /sim/llm/reset`). */
  async resetModel(): Promise<void> {
    await this.http.call("post", "/sim/llm/reset");
  }
}

export type { SimPaths };
