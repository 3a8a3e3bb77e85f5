"""Real libraries as oracles: what python-telegram-bot and aiogram send comes back with the entities they expect."""

from __future__ import annotations

import pytest
from aiogram.exceptions import TelegramBadRequest
from aiogram.utils import formatting as fmt
from aiogram.utils import markdown as md
from aiogram.utils.text_decorations import html_decoration, markdown_decoration
from telegram.error import BadRequest

from tests.clients import aiogram_bot, ptb_bot
from tests.conftest import Wire

HTML_SAMPLES = [
    "You picked <b>Red</b>",
    "<b>bold</b> <i>both</i> <u>under</u> <s>gone</s> <span class=\"tg-spoiler\">secret</span>",
    '<a href="https://example.com/a?b=1">link</a> and <code>x &lt; y</code>',
    '<pre><code class="language-python">print("hi")</code></pre>',
    "before\n<blockquote>quoted\nlines</blockquote>",
    "emoji 🙂 <b>after 🙂 astral</b> ✓",
]


async def test_python_telegram_bot_reply_html_and_markdown_v2_round_trip(wire: Wire) -> None:
    await wire.say("hi")
    async with ptb_bot(wire) as bot:
        [update] = await bot.get_updates()
        assert update.message is not None
        for html in HTML_SAMPLES:
            sent = await update.message.reply_html(html)
            # the library writes the entities back as HTML (its own spelling); that parses to the same message
            again_html = await update.message.reply_html(sent.text_html)
            assert (again_html.text, again_html.entities) == (sent.text, sent.entities)
            # the same message written as MarkdownV2 by the library parses back to the same entities
            again = await update.message.reply_markdown_v2(sent.text_markdown_v2)
            assert (again.text, again.entities) == (sent.text, sent.entities)
        assert sent.entities
        assert (sent.entities[0].type, sent.entities[0].offset) == ("bold", 9)
        # Telegram cuts an entity where another splittable one starts: nested bold comes back in two pieces
        nested = await update.message.reply_html("<b>bold <i>both</i></b>")
        assert [(e.type, e.offset, e.length) for e in nested.entities] == [
            ("bold", 0, 5), ("bold", 5, 4), ("italic", 5, 4)
        ]  # fmt: skip
        assert nested.text_html == "<b>bold </b><b><i>both</i></b>"
        with pytest.raises(BadRequest, match="Can't parse entities: character '!' is reserved"):
            await update.message.reply_markdown_v2("Hello!")
    transcript = await wire.text()
    for line in (
        "[2] bot: You picked **Red**\n",
        "bot: **bold** _both_ __under__ ~~gone~~ ||secret||\n",
        "bot: [link](https://example.com/a?b=1) and `x < y`\n",
        'bot: ```python\n    print("hi")\n    ```\n',
        "bot: before\n    > quoted\n    > lines\n",
        "bot: emoji 🙂 **after 🙂 astral** ✓\n",
        "bot: **bold ****_both_**\n",
    ):
        assert line in transcript


async def test_aiogram_formatting_entities_and_html_helpers(wire: Wire) -> None:
    bot = aiogram_bot(wire)
    try:
        content = fmt.Text(
            fmt.Bold("Total:"), " ", fmt.Code("42"), "\n", fmt.Italic("ünïcode 🙂 ", fmt.Underline("nested")), " ",
            fmt.TextLink("docs", url="https://example.com/docs"), " ", fmt.Spoiler("s"),
        )  # fmt: skip
        kwargs = content.as_kwargs()
        sent = await bot.send_message(4242, **kwargs)  # explicit entities, no parse_mode
        assert sent.text == kwargs["text"]
        # the library's nested italic/underline comes back cut where the underline starts, as Telegram does it
        assert [(e.type, e.offset, e.length) for e in sent.entities or []] == [
            ("bold", 0, 6), ("code", 7, 2), ("italic", 10, 11), ("italic", 21, 6), ("underline", 21, 6),
            ("text_link", 28, 4), ("spoiler", 33, 1),
        ]  # fmt: skip
        # what the library writes back parses to the same message, in either of its markups
        for markup, mode in ((html_decoration, "HTML"), (markdown_decoration, "MarkdownV2")):
            again = await bot.send_message(4242, markup.unparse(sent.text or "", sent.entities), parse_mode=mode)
            assert (again.text, again.entities) == (sent.text, sent.entities)

        html = md.text(md.hbold("Hi"), md.hitalic("<there>"), md.hcode("a&b"), sep=" ")
        by_html = await bot.send_message(4242, html, parse_mode="HTML")
        assert html_decoration.unparse(by_html.text or "", by_html.entities) == html
        by_md = await bot.send_message(4242, md.text(md.bold("Hi"), md.italic("x.y"), sep=" "), parse_mode="MarkdownV2")
        assert (by_md.text, [e.type for e in by_md.entities or []]) == ("Hi x.y", ["bold", "italic"])
        with pytest.raises(TelegramBadRequest, match='Unsupported start tag "br" at byte offset 2'):
            await bot.send_message(4242, "a <br> b", parse_mode="HTML")
    finally:
        await bot.session.close()
