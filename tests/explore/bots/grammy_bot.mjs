// A small grammY bot with planted bugs (PLANT, comma-separated), or none: the correct twin. The same bot as
// plain_bot.py: it registers /start, /help, /menu, /about and /stats; /start greets the person by name (HTML,
// escaped) under an inline keyboard [Count] [Info] [Refresh] ([Info] shows [Back] [Close]); /menu shows a reply
// keyboard; /stats tells everyone who used the bot (and forgets a person who blocked it). It survives a 429 (waits
// retry_after), a 5xx and a block. Updates are handled one at a time (bot.start(), or the webhook's answer after).
//
//   TELEGRAM_API, BOT_TOKEN   where the Bot API is and the bot's token
//   MODE                      webhook: webhookCallback on node:http (a free loopback port) instead of bot.start()
//   PLANT                     crash, no_reply, unanswered_callback, dead_button, markup_injection, not_modified,
//                             too_long, api_refused, retry_after_ignored, fault_not_recovered, blocked_not_handled,
//                             slow_reply (/menu answers 2 s late)
//
// Errors a handler lets escape reach one error boundary: a refused call is logged in one line, anything else with
// its stack (what `bot.catch(console.error)` prints).

import http from "node:http";
import grammy from "grammy";

const { Bot, GrammyError, InlineKeyboard, Keyboard, webhookCallback } = grammy;

const PLANTS = new Set((process.env.PLANT || "").split(","));
const plant = (word) => PLANTS.has(word);
const COMMANDS = [
  ["start", "Start"],
  ["help", "Help"],
  ["menu", "A menu"],
  ["about", "About"],
  ["stats", "Stats"],
];
const ABOUT = "About this bot. " + "Lorem ipsum dolor sit amet. ".repeat(200); // over 4096 characters
const main = () => new InlineKeyboard().text("Count", "count").text("Info", "info").row().text("Refresh", "refresh");
const back = () => new InlineKeyboard().text("Back", "back").text("Close", "close");
const escape = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const bot = new Bot(process.env.BOT_TOKEN, { client: { apiRoot: process.env.TELEGRAM_API } });
const counts = new Map();
const people = new Set();
let broken = false; // the planted fault bug: a circuit breaker that opens on a 5xx and never closes

bot.api.config.use(async (prev, method, payload, signal) => {
  const answer = await prev(method, payload, signal);
  if (plant("fault_not_recovered") && !answer.ok && answer.error_code >= 500) broken = true;
  return answer;
});

/** sendMessage, waiting out a 429 as Telegram asks (the planted bug sends again at once); a person who blocked the
 * bot is forgotten (the planted bug lets the 403 escape, and remembers them). */
async function send(chatId, text, other = {}) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await bot.api.sendMessage(chatId, text, other);
    } catch (err) {
      if (!(err instanceof GrammyError)) throw err;
      if (err.error_code === 429) {
        if (!plant("retry_after_ignored")) await sleep(1000 * (err.parameters.retry_after ?? 1));
        continue;
      }
      if (err.error_code === 403 && !plant("blocked_not_handled")) {
        people.delete(chatId);
        return undefined;
      }
      throw err;
    }
  }
  return undefined;
}

const app = bot.errorBoundary((err) => {
  if (err.error instanceof GrammyError) console.log(`Bot API refused: ${err.error.description}`);
  else console.error(err.error);
});

app.use(async (ctx, next) => {
  if (!broken) await next();
});

app.on("message", async (ctx) => {
  const msg = ctx.message;
  if (msg.text === undefined && !plant("crash")) return;
  const text = msg.text;
  const command = text.startsWith("/") ? text.split(/\s/)[0].split("@")[0] : ""; // the bug: a photo has no text
  const chat = msg.chat.id;
  if (msg.chat.type === "private") people.add(chat);
  const name = msg.from.first_name;
  if (command === "/start") {
    const shown = plant("markup_injection") ? name : escape(name);
    await send(chat, `Hello, <b>${shown}</b>!`, { parse_mode: "HTML", reply_markup: main() });
  } else if (command === "/help") {
    if (!plant("no_reply")) await send(chat, "I count taps. /menu shows a keyboard, /about tells about me.");
  } else if (command === "/menu") {
    if (plant("slow_reply")) await sleep(2000);
    await send(chat, "Pick a colour.", { reply_markup: new Keyboard().text("Red").text("Blue").resized() });
  } else if (command === "/about") {
    if (plant("too_long")) await send(chat, ABOUT);
    else for (let at = 0; at < ABOUT.length; at += 4096) await send(chat, ABOUT.slice(at, at + 4096));
  } else if (command === "/stats") {
    for (const person of [...people].sort((a, b) => a - b)) await send(person, "Someone asked for the stats.");
    if (plant("api_refused")) await bot.api.sendPhoto(chat, "no-such-file-id");
    else {
      const taps = [...counts.values()].reduce((a, b) => a + b, 0);
      await send(chat, `${people.size} people, ${taps} taps.`);
    }
  } else if (command) {
    await send(chat, "I do not know that command.");
  } else if (text === "Red" || text === "Blue") {
    await send(chat, `${text} it is.`, { reply_markup: { remove_keyboard: true } });
  } else {
    const reply = `You said: ${escape(text)}`;
    await send(chat, reply.length <= 4096 ? reply : "That is a long one.", { parse_mode: "HTML" });
  }
});

app.callbackQuery("count", async (ctx) => {
  const chat = ctx.chat.id;
  counts.set(chat, (counts.get(chat) ?? 0) + 1);
  await ctx.editMessageText(`Count: ${counts.get(chat)}`, { reply_markup: main() });
  await ctx.answerCallbackQuery();
});

app.callbackQuery("info", async (ctx) => {
  await ctx.answerCallbackQuery({ text: "Info" });
  await ctx.editMessageText("This bot counts taps.", { reply_markup: back() });
});

// The two button plants sit on the [Info] screen's buttons only (one state), so few taps wait out the reply time.
app.callbackQuery("back", async (ctx) => {
  await ctx.editMessageText("Main menu", { reply_markup: main() });
  if (!plant("unanswered_callback")) await ctx.answerCallbackQuery();
});

app.callbackQuery("close", async (ctx) => {
  if (plant("dead_button")) return;
  await ctx.answerCallbackQuery({ text: "Closed" });
  await ctx.editMessageText("Closed. /start opens the menu again.");
});

app.callbackQuery("refresh", async (ctx) => {
  await ctx.answerCallbackQuery();
  const text = `Taps so far: ${counts.get(ctx.chat.id) ?? 0}`;
  if (plant("not_modified") || ctx.callbackQuery.message?.text !== text) {
    await ctx.editMessageText(text, { reply_markup: main() });
  }
});

async function run() {
  await bot.api.setMyCommands(COMMANDS.map(([command, description]) => ({ command, description })));
  if (process.env.MODE === "webhook") {
    await bot.init();
    const server = http.createServer(webhookCallback(bot, "http"));
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    await bot.api.setWebhook(`http://127.0.0.1:${server.address().port}/hook`);
  } else {
    await bot.start();
  }
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
