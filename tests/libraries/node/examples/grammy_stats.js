// grammY's stats example: a per-chat session counts messages and edits; /start in a private chat and the bot's
// being added to a group (:new_chat_members:me) greet; /stats answers the counts in HTML.
"use strict";
const { Bot, session } = require("grammy");

const bot = new Bot(process.env.BOT_TOKEN, { client: { apiRoot: process.env.TELEGRAM_API } });
bot.use(session({ initial: () => ({ messages: 1, edits: 0 }) }));
bot.on("message", async (ctx, next) => {
  ctx.session.messages++;
  await next();
});
bot.on("edited_message", async (ctx, next) => {
  ctx.session.edits++;
  await next();
});
bot
  .filter((ctx) => ctx.chat?.type === "private")
  .command("start", (ctx) => ctx.reply("Hi there! I will count the messages in this chat so you can get your /stats!"));
bot.on(":new_chat_members:me", (ctx) =>
  ctx.reply("Hi everyone! I will count the messages in this chat so you can get your /stats!"),
);
bot.command("stats", async (ctx) => {
  const stats = ctx.session;
  const message = `You sent <b>${stats.messages} messages</b> since I'm here! You edited messages <b>${
    stats.edits
  } times</b>—that is <b>${stats.edits / stats.messages} edits</b> per message on average!`;
  await ctx.reply(message, { parse_mode: "HTML" });
});
bot.catch((err) => console.error(err));
bot.start();
