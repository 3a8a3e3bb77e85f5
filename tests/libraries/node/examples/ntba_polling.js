// node-telegram-bot-api 0.x's examples/polling.js: /photo sends a photo from a file path with a caption, /audio
// streams an audio file from an HTTP request, /love asks with a reply keyboard in reply to the command, /echo <text>
// answers the text, /editable sends an inline button whose callback_query edits the message. Only the API root
// (baseApiUrl) points at the stand; the photo's path and the audio's URL (the example's test/data/photo.gif and a
// Wikimedia .ogg) come from PHOTO_PATH and AUDIO_URL (a local server).
"use strict";
process.env.NTBA_FIX_319 = "1";
process.env.NTBA_FIX_350 = "1";

const TOKEN = process.env.BOT_TOKEN;
const TelegramBot = require("node-telegram-bot-api");
const request = require("@cypress/request");
const options = {
  polling: true,
  baseApiUrl: process.env.TELEGRAM_API,
};
const bot = new TelegramBot(TOKEN, options);

// Matches /photo
bot.onText(/\/photo/, function onPhotoText(msg) {
  // From file path
  const photo = process.env.PHOTO_PATH;
  bot.sendPhoto(msg.chat.id, photo, {
    caption: "I'm a bot!",
  });
});

// Matches /audio
bot.onText(/\/audio/, function onAudioText(msg) {
  // From HTTP request
  const url = process.env.AUDIO_URL;
  const audio = request(url);
  bot.sendAudio(msg.chat.id, audio);
});

// Matches /love
bot.onText(/\/love/, function onLoveText(msg) {
  const opts = {
    reply_to_message_id: msg.message_id,
    reply_markup: JSON.stringify({
      keyboard: [["Yes, you are the bot of my life ❤"], ["No, sorry there is another one..."]],
    }),
  };
  bot.sendMessage(msg.chat.id, "Do you love me?", opts);
});

// Matches /echo [whatever]
bot.onText(/\/echo (.+)/, function onEchoText(msg, match) {
  const resp = match[1];
  bot.sendMessage(msg.chat.id, resp);
});

// Matches /editable
bot.onText(/\/editable/, function onEditableText(msg) {
  const opts = {
    reply_markup: {
      inline_keyboard: [
        [
          {
            text: "Edit Text",
            // we shall check for this value when we listen
            // for "callback_query"
            callback_data: "edit",
          },
        ],
      ],
    },
  };
  bot.sendMessage(msg.from.id, "Original Text", opts);
});

// Handle callback queries
bot.on("callback_query", function onCallbackQuery(callbackQuery) {
  const action = callbackQuery.data;
  const msg = callbackQuery.message;
  const opts = {
    chat_id: msg.chat.id,
    message_id: msg.message_id,
  };
  let text;

  if (action === "edit") {
    text = "Edited Text";
  }

  bot.editMessageText(text, opts);
});

// What the example leaves to the console: a refused call stops the bot, so that the test shows it.
process.on("unhandledRejection", (err) => {
  console.error("UNHANDLED", err.message);
  process.exit(1);
});
bot.on("polling_error", (err) => console.error("polling_error", err.message));
process.once("SIGTERM", () => bot.stopPolling().then(() => process.exit(0)));
