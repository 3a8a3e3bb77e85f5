// Telegraf's download-bot: every photo the bot sees is downloaded (getFileLink, then fetch) into ./photos.
"use strict";
const { Telegraf } = require("telegraf");
const { message } = require("telegraf/filters");
const { mkdirSync, createWriteStream } = require("node:fs");
const { Writable } = require("node:stream");

mkdirSync("./photos", { recursive: true });
const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });

const download = async (fromFileId, toPath) => {
  const link = await bot.telegram.getFileLink(fromFileId);
  const res = await fetch(link.toString());
  await res.body.pipeTo(Writable.toWeb(createWriteStream(toPath)));
};

bot.on(message("photo"), async (ctx) => {
  const { file_id } = ctx.message.photo.pop();
  const path = `./photos/${file_id}.jpg`;
  await download(file_id, path);
  console.log("Downloaded", path);
});
bot.launch();
