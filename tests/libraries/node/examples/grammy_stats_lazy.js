// grammY's stats-lazy example: a lazy session counts the chat's photos; /start, the group greeting and /stats.
"use strict";
const { Bot, lazySession } = require("grammy");

const bot = new Bot(process.env.BOT_TOKEN, { client: { apiRoot: process.env.TELEGRAM_API } });
bot.use(lazySession({ initial: () => ({ photoCount: 0 }) }));
bot.on("message:photo", async (ctx, next) => {
  const stats = await ctx.session;
  stats.photoCount++;
  await next();
});
bot
  .filter((ctx) => ctx.chat?.type === "private")
  .command("start", (ctx) => ctx.reply("Hi there! I will count the photos in this chat so you can get your /stats!"));
bot.on(":new_chat_members:me", (ctx) =>
  ctx.reply("Hi everyone! I will count the photos in this chat so you can get your /stats!"),
);
bot.command("stats", async (ctx) => {
  const stats = await ctx.session;
  await ctx.reply(`You sent <b>${stats.photoCount} photos</b> since I'm here!`, { parse_mode: "HTML" });
});
bot.catch((err) => console.error(err));
bot.start();
