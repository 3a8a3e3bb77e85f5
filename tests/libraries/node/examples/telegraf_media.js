// Telegraf's media-bot: photos from a local file path, a stream, a buffer, a URL Telegraf streams ({ url }) and a
// URL Telegram fetches (a plain string); animations the same two ways; a Markdown caption; an album mixing every
// kind of source; and an animation whose button swaps it for another with editMessageMedia.
// The stand has no network: what Telegram would fetch (the plain-string URLs, the album's file_id) is a file id
// the stand holds (PHOTO_ID, ANIMATION_1, ANIMATION_2); what Telegraf streams comes from a local server (MEDIA_URL);
// the example's /cats/*.jpeg are in CATS.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { Telegraf, Markup } = require("telegraf");

const AnimationUrl1 = process.env.ANIMATION_1;
const AnimationUrl2 = process.env.ANIMATION_2;
const randomPhoto = process.env.PHOTO_ID;
const streamed = process.env.MEDIA_URL;
const cat = (n) => path.join(process.env.CATS, `cat${n}.jpeg`);

const bot = new Telegraf(process.env.BOT_TOKEN, { telegram: { apiRoot: process.env.TELEGRAM_API } });
bot.command("local", (ctx) => ctx.replyWithPhoto({ source: cat(1) }));
bot.command("stream", (ctx) => ctx.replyWithPhoto({ source: fs.createReadStream(cat(2)) }));
bot.command("buffer", (ctx) => ctx.replyWithPhoto({ source: fs.readFileSync(cat(3)) }));
bot.command("pipe", (ctx) => ctx.replyWithPhoto({ url: streamed }));
bot.command("url", (ctx) => ctx.replyWithPhoto(randomPhoto));
bot.command("animation", (ctx) => ctx.replyWithAnimation(AnimationUrl1));
bot.command("pipe_animation", (ctx) => ctx.replyWithAnimation({ url: `${streamed}/anim.gif` }));
bot.command("caption", (ctx) =>
  ctx.replyWithPhoto(randomPhoto, { caption: "Caption *text*", parse_mode: "Markdown" }),
);
bot.command("album", (ctx) => {
  ctx.replyWithMediaGroup([
    { media: randomPhoto, caption: "From file_id", type: "photo" },
    { media: randomPhoto, caption: "From URL", type: "photo" },
    { media: { url: streamed }, caption: "Piped from URL", type: "photo" },
    { media: { source: cat(1) }, caption: "From file", type: "photo" },
    { media: { source: fs.createReadStream(cat(2)) }, caption: "From stream", type: "photo" },
    { media: { source: fs.readFileSync(cat(3)) }, caption: "From buffer", type: "photo" },
  ]);
});
bot.command("edit_media", (ctx) =>
  ctx.replyWithAnimation(AnimationUrl1, Markup.inlineKeyboard([Markup.button.callback("Change media", "swap_media")])),
);
bot.action("swap_media", (ctx) => ctx.editMessageMedia({ type: "animation", media: AnimationUrl2 }));
bot.launch();
