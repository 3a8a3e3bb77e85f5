// Telegraf's session-bot example: the in-memory session() counts every message of the chat and says so.
"use strict";
const { Telegraf, session } = require("telegraf");

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
bot.use(session());
bot.on("message", async (ctx) => {
  ctx.session ??= { messageCount: 0 };
  ctx.session.messageCount++;
  await ctx.reply(`Seen ${ctx.session.messageCount} messages.`);
});
bot.launch();
