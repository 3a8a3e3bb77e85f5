// What the client reads and writes: people, chats, calls and messages as the stand's views show them. The same
// values as the Python client's (tgfake/testing/values.py), in camelCase.
import type { CallView } from "./generated/sim.js";

/** The token handed to a bot under test (the stand accepts any token; its bot id is the number before the colon). */
export const DEFAULT_BOT_TOKEN = "123456:tgfake";

/** The group alice writes in with `chat: "group"` (`-100000000000 - 4242`). */
export const DEFAULT_GROUP_ID = -100000004242;

/** How long a wait for the bot lasts unless told otherwise, in milliseconds: generous, a green run never waits it out. */
export const DEFAULT_TIMEOUT = 10_000;

/** How long `expectNoReply` watches for a message that should not come, in milliseconds. */
export const QUIET_PERIOD = 500;

/** How long a reply with the wrong text must stay unchanged (the bot making no call) before a wait fails, in ms. */
export const SETTLE = 2_000;

/** How long a bot under test has to make its first Bot API call, in milliseconds. */
export const DEFAULT_READY_TIMEOUT = 60_000;

/** The kind of a service message (`* bob joined`, pins, removals): not a reply a person reads. */
export const SERVICE = "service";

/** The sim API refused a request: the HTTP `status` and the `error` text it answered. */
export class SimAPIError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly path: string,
  ) {
    super(`${path}: HTTP ${status}: ${error}`);
    this.name = "SimAPIError";
  }
}

// ---------------------------------------------------------------------------------------------------- people

/** Someone who writes to the bot; `username` doubles as the name in transcripts. */
export interface Person {
  userId: number;
  username: string;
  firstName: string;
}

/** A person by name (`"alice"`, `"@bob"`), by user id, or as a {@link Person}. */
export type Who = string | number | Person;

const KNOWN_PEOPLE: Record<string, number> = { alice: 4242, bob: 4343, carol: 4444, dave: 4545, eve: 4646, mallory: 5151 };

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(text: string): number {
  let c = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The stable id the stand gives a person named in a test (alice is 4242), as tgfake's `user_id_for`. */
export function userIdFor(name: string): number {
  const key = name.trim().replace(/^@+/, "").toLowerCase();
  return KNOWN_PEOPLE[key] ?? 10_000 + (crc32(key) % 90_000);
}

/** Resolve `"alice"`, `"bob"`, a user id or a {@link Person} to a {@link Person}. */
export function person(who: Who): Person {
  if (typeof who === "object") return who;
  if (typeof who === "number") return { userId: who, username: who === 4242 ? "alice" : "", firstName: "" };
  const name = who.trim().replace(/^@+/, "").toLowerCase();
  if (!name) throw new Error("a person needs a name");
  return { userId: userIdFor(name), username: name, firstName: name.slice(0, 1).toUpperCase() + name.slice(1) };
}

/** A chat a person acts in: its id, `"private"` (their own chat with the bot), `"group"` or `"supergroup"` (the
 * default group), or a chat made with `createChat`; none: their private chat. */
export type ChatRef = number | "private" | "group" | "supergroup" | { id: number };

// ---------------------------------------------------------------------------------------------------- what the stand answers

/** One Bot API call the bot made, as the outbox recorded it. */
export class Call {
  readonly seq: number;
  readonly method: string;
  readonly params: Record<string, string>;
  readonly status: number;
  readonly response: unknown;
  readonly at: string;
  readonly botId: number;

  constructor(raw: Partial<CallView>) {
    this.seq = Number(raw.seq ?? 0);
    this.method = String(raw.method ?? "");
    this.params = Object.fromEntries(Object.entries(raw.params ?? {}).map(([k, v]) => [k, String(v)]));
    this.status = Number(raw.status ?? 0);
    this.response = raw.response;
    this.at = String(raw.at ?? "");
    this.botId = Number(raw.bot_id ?? 0);
  }

  /** Whether Telegram's answer was a success (HTTP 200). */
  get ok(): boolean {
    return this.status === 200;
  }

  /** One line for failure reports: `#7 sendMessage -> 200  chat_id=4242, text=Hello`. */
  line(): string {
    const clip = (v: string) => {
      const s = v.replace(/\n/g, "\\n");
      return s.length <= 60 ? s : s.slice(0, 59) + "…";
    };
    const shown = Object.entries(this.params)
      .map(([k, v]) => `${k}=${clip(v)}`)
      .join(", ");
    return `#${this.seq} ${this.method} -> ${this.status}  ${shown}`;
  }
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A message as the stand's chat view shows it (`GET /sim/chat/{id}`); `raw` is the view's JSON. */
export class ChatMessage {
  readonly messageId: number;
  readonly fromBot: boolean;
  readonly text: string;
  readonly caption: string;
  readonly username: string;
  readonly edited: boolean;
  readonly deleted: boolean;
  /** The inline keyboard's labels, rows of them. */
  readonly keyboard: string[][];
  readonly entities: Json[];
  /** `text`, or what the message carries: `photo`, `poll`, `location`, `dice`, `invoice`..., `service`. */
  readonly kind: string;
  /** A forward's origin as the transcript names it. */
  readonly forwardedFrom: string;

  constructor(readonly raw: Json) {
    this.messageId = Number(raw.message_id ?? 0);
    this.fromBot = raw.from === "bot";
    this.text = String(raw.text ?? "");
    this.caption = String(raw.caption ?? "");
    this.username = String(raw.username ?? "");
    this.edited = Boolean(raw.edited);
    this.deleted = Boolean(raw.deleted);
    const rows = Array.isArray(raw.keyboard) ? (raw.keyboard as unknown[]) : [];
    this.keyboard = rows.map((row) =>
      (Array.isArray(row) ? row : []).map((b: unknown) => (isObject(b) ? String(b.text ?? "") : String(b))),
    );
    const entities = raw.entities ?? raw.caption_entities;
    this.entities = Array.isArray(entities) ? (entities as Json[]) : [];
    this.kind = String(raw.kind ?? (raw[SERVICE] ? SERVICE : "text"));
    this.forwardedFrom = String(raw.forwarded_from ?? "");
  }

  /** The text, or the caption of a photo or document. */
  get body(): string {
    return this.text || this.caption;
  }

  /** A message a person reads (text, media, a poll, an invoice...), not a service line such as a join. */
  get readable(): boolean {
    return this.kind !== SERVICE;
  }

  /** What a non-text message carries, as the chat view shows its kind (a poll, a location, a photo's file...). */
  get content(): Json | undefined {
    const value = this.kind !== "text" && this.kind !== SERVICE ? this.raw[this.kind] : undefined;
    return isObject(value) ? value : undefined;
  }

  /** A service message's event (`{ left_chat_member: {...} }`). */
  get service(): Json | undefined {
    const value = this.raw[SERVICE];
    return isObject(value) ? value : undefined;
  }

  /** The poll (the Bot API `Poll`), if the message is one. */
  get poll(): Json | undefined {
    return this.kind === "poll" ? this.content : undefined;
  }

  /** The index of the poll's option with this text (what `vote` takes). */
  pollOption(label: string): number {
    const poll = this.poll;
    if (!poll) throw new Error(`message ${this.messageId} is not a poll`);
    const labels = (Array.isArray(poll.options) ? (poll.options as Json[]) : []).map((o) => String(o.text));
    const i = labels.indexOf(label);
    if (i < 0) throw new Error(`the poll of message ${this.messageId} has no option ${JSON.stringify(label)}: ${labels.join(", ")}`);
    return i;
  }

  /** Who reacted how, counted: `{ "👍": 2 }`. */
  get reactions(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const item of Array.isArray(this.raw.reactions) ? (this.raw.reactions as Json[]) : []) {
      const kind = isObject(item.type) ? item.type : {};
      out[String(kind.emoji ?? kind.custom_emoji_id ?? "")] = Number(item.total_count ?? 0);
    }
    return out;
  }

  /** The labels of the reply keyboard this message sent, rows of them. */
  get replyKeyboard(): string[][] {
    const markup = isObject(this.raw.reply_keyboard) ? this.raw.reply_keyboard : {};
    const rows = Array.isArray(markup.keyboard) ? (markup.keyboard as unknown[][]) : [];
    return rows.map((row) => row.map((b) => (isObject(b) ? String(b.text ?? "") : String(b))));
  }

  /** The keyboard as the text transcript draws it: `[A] [B]` per row, rows joined by newlines. */
  keyboardText(): string {
    return this.keyboard.map((row) => row.map((label) => `[${label}]`).join(" ")).join("\n");
  }
}

/** What the person's actions return: the ids the stand minted. */
export interface Sent {
  chatId: number;
  updateId: number;
  messageId: number;
  callbackQueryId: string;
  /** sendFile / sendPhoto / sendDocument: the file's id, for getFile. */
  fileId: string;
  /** sendAlbum: the album every item belongs to. */
  mediaGroupId: string;
}

export function sent(chatId: number, got: Json, extra: Partial<Sent> = {}): Sent {
  return {
    chatId,
    updateId: Number(got.update_id ?? 0),
    messageId: Number(got.message_id ?? 0),
    callbackQueryId: String(got.callback_query_id ?? ""),
    fileId: String(got.file_id ?? ""),
    mediaGroupId: "",
    ...extra,
  };
}

/** A group, supergroup or channel as the stand answers it (`createChat` and the membership routes). */
export class ChatInfo {
  readonly id: number;
  readonly type: string;
  readonly title: string;
  readonly username: string;
  readonly isForum: boolean;
  readonly members: Json[];

  constructor(readonly raw: Json) {
    this.id = Number(raw.id ?? 0);
    this.type = String(raw.type ?? "");
    this.title = String(raw.title ?? "");
    this.username = String(raw.username ?? "");
    this.isForum = Boolean(raw.is_forum);
    this.members = Array.isArray(raw.members) ? (raw.members as Json[]) : [];
  }

  /** A member's status (`creator`, `administrator`, `member`, `restricted`, `left`, `kicked`) by id, username or
   * first name; `""` for someone the chat has never had. */
  statusOf(who: string | number): string {
    const key = typeof who === "string" ? who.replace(/^@+/, "").toLowerCase() : who;
    for (const m of this.members) {
      const names = ["username", "first_name", "name"].map((k) => String(m[k] ?? "").toLowerCase()).filter(Boolean);
      if (key === m.user_id || key === m.id || (typeof key === "string" && names.includes(key))) return String(m.status ?? "");
    }
    return "";
  }
}

/** What a membership change left: the account's `status` in the chat, and the chat. */
export interface Membership {
  status: string;
  chat: ChatInfo;
}

/** A bot made with `addBot` (`POST /sim/bots`): its id, username and the token to start it with. */
export interface BotInfo {
  id: number;
  username: string;
  token: string;
  firstName: string;
  raw: Json;
}
