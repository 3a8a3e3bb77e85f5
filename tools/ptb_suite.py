"""Run python-telegram-bot's own online tests (the ``bot`` fixture's) against a stand.

Not part of this repository's suite (pytest never collects ``tools/``) and not run in CI: a discovery tool. Give it
a checkout (or ``git archive``) of python-telegram-bot whose ``tests/`` matches the installed ``telegram``:

    python -m tools.ptb_suite /tmp/ptbtests tests/test_bot.py tests/_files -q

It starts ``python -m tgfake`` on a free port with the suite's first fallback bot token (579694714, named
``@ptb_fallback_1_bot`` as the suite expects), puts a TLS front on it (the suite checks that file paths are
``https://``; the front's self-signed certificate is trusted through ``SSL_CERT_FILE``), sets up through the sim API
(and the bot's own setChatPhoto and sendMessage) the world the maintainers' test chats have, their test user's
personal channel and the bot's BotFather game (photo and animation from the checkout's ``tests/data``), and runs
pytest on the given paths with ``-m req`` (the online tests), loading :mod:`tools.ptb_suite_plugin`, which only
points ``telegram.Bot`` at the stand and fills in the bot's info. The suite's own logic is never changed. What is
left to pytest's arguments: ``-k``, ``-x``, ``--lf``...
"""

from __future__ import annotations

import asyncio
import base64
import datetime
import json
import os
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "579694714:AAFgj_8f4UeWXkouURzTe8aEF4PcEBDqvV4"
"""The suite's first public fallback bot (tests/auxil/ci_bots.py): the bot id its get_me mock derives."""
BOT_ID = 579694714
PERSON = 675666224  # chat_id: the maintainers' test user, "PTB Test user"
SUPERGROUP = -1001310911135
FORUM = -1001838004577
CHANNEL = -1001000000042  # the suite names it @pythontelegrambottests, which the stand resolves
SUBSCRIPTION_CHANNEL = -1002229649303
PERSONAL_CHANNEL = -1001000000043  # the channel on the test user's profile (getUserPersonalChatMessages)
HELPER_BOTS = ("@ptb_helper_one_bot", "@ptb_helper_two_bot")

INI = """[pytest]
testpaths = tests
filterwarnings =
    error
    ignore::DeprecationWarning
    ignore:Tasks created via `Application\\.create_task` while the application is not running
    ignore::ResourceWarning
    ignore::pytest.PytestUnknownMarkWarning
markers =
    dev
    no_req
    req
    flaky
asyncio_mode = auto
asyncio_default_fixture_loop_scope = session
asyncio_default_test_loop_scope = session
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost, and its key (PEM files in ``directory``)."""
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    san = x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")])
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(san, critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "stand.pem", directory / "stand.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


def tls_front(cert: Path, key: Path, port: int, backend: int) -> None:
    """Serve TLS on ``port`` in a daemon thread, piping every connection to the plain stand on ``backend``."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, ssl.SSLError):
            pass
        finally:
            writer.close()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", backend)
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", port, ssl=context)
        async with server:
            await server.serve_forever()

    threading.Thread(target=asyncio.run, args=(main(),), daemon=True).start()


def sim(stand: str, path: str, body: Any = None) -> Any:
    data = json.dumps(body or {}).encode()
    request = urllib.request.Request(f"{stand}/sim/{path}", data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as exc:
        raise SystemExit(f"POST /sim/{path}: {exc.code} {exc.read().decode()}") from exc


def bot_upload(stand: str, method: str, fields: dict[str, str], part: str, name: str, data: bytes) -> Any:
    """A Bot API call with one file part, as the bot sends it (the runner's own setup, before the suite runs)."""
    boundary = "ptbsuiteboundary"
    body = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
        for key, value in fields.items()
    )
    body += f'--{boundary}\r\nContent-Disposition: form-data; name="{part}"; filename="{name}"\r\n'.encode()
    body += b"Content-Type: application/octet-stream\r\n\r\n" + data + f"\r\n--{boundary}--\r\n".encode()
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    request = urllib.request.Request(f"{stand}/bot{TOKEN}/{method}", data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as exc:
        raise SystemExit(f"{method}: {exc.code} {exc.read().decode()}") from exc


def chat_photo() -> bytes:
    """A 640 px picture for the supergroup's photo (the maintainers' group has one: test_chatphoto reads it)."""
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.radial_gradient("L").resize((640, 640)).convert("RGB").save(out, "JPEG", quality=85)
    return out.getvalue()


GAME = {"short_name": "test_game", "title": "Python-telegram-bot test game",
        "description": "A no-op test game, for python-telegram-bot bot framework testing."}  # fmt: skip
"""The maintainers' BotFather game (test_send_game reads its description); its photo and animation are the
suite's own tests/data/game.png and game.gif."""


def file_part(path: Path) -> dict[str, str]:
    return {"name": path.name, "data": base64.b64encode(path.read_bytes()).decode()}


def set_up_world(stand: str, checkout: Path) -> None:
    """The maintainers' chats as the suite finds them: their test user who started the bot, a supergroup titled
    after the bot with a photo, a forum, a channel the user owns with several bot administrators and members, and
    the user's personal channel with two posts, and the bot's BotFather game."""
    sim(stand, "reset")
    # The maintainers' chats are years old: their first messages are past the two days a bot may delete in. The
    # world is made three days ago, then the clock is put back to now (the suite's close dates are real times).
    sim(stand, "clock", {"set": time.time() - 3 * 86400})
    sim(stand, f"bots/{BOT_ID}/inline", {"enabled": True})
    for n, username in enumerate(HELPER_BOTS):
        sim(stand, "bots", {"id": 5000000001 + n, "username": username[1:], "first_name": f"PTB helper {n + 1}"})
    person = {"user_id": PERSON, "username": "ptb_test_user", "first_name": "PTB", "last_name": "Test user"}
    sim(stand, "message", {**person, "text": "/start"})
    sim(stand, "message", {"user_id": 1325859552, "first_name": "Promoted", "text": "/start"})  # a user it promotes
    members = [5551, 5552, 5553]
    admins = ["@ptb_fallback_1_bot", *HELPER_BOTS]
    title = ">>> telegram.Bot(test) @ptb_fallback_1_bot"
    sim(stand, "chats", {"type": "supergroup", "id": SUPERGROUP, "title": title, "creator": PERSON, "admins": admins})
    forum = {"type": "supergroup", "id": FORUM, "title": "PTB forum", "is_forum": True, "creator": PERSON}
    sim(stand, "chats", {**forum, "admins": admins})
    channel = {"type": "channel", "id": CHANNEL, "title": "PTB tests", "username": "pythontelegrambottests"}
    sim(stand, "chats", {**channel, "creator": PERSON, "admins": admins, "members": members})
    sub = {"type": "channel", "id": SUBSCRIPTION_CHANNEL, "title": "PTB subscription channel", "creator": PERSON}
    sim(stand, "chats", {**sub, "admins": ["@ptb_fallback_1_bot"]})
    # The bot administers the channel without the right to add administrators (its promotions: Not enough rights).
    rights = ["can_manage_chat", "can_change_info", "can_post_messages", "can_edit_messages", "can_delete_messages"]
    rights += ["can_invite_users", "can_restrict_members", "can_manage_video_chats"]
    promote = {"user": "@ptb_fallback_1_bot", "by": PERSON, "rights": dict.fromkeys(rights, True)}
    sim(stand, f"chats/{CHANNEL}/promote", promote)
    bot_upload(stand, "setChatPhoto", {"chat_id": str(SUPERGROUP)}, "photo", "group.jpg", chat_photo())
    # The test user's personal chat: a channel of theirs on their profile, with posts in it.
    personal = {"type": "channel", "id": PERSONAL_CHANNEL, "title": "PTB Test user's channel", "creator": PERSON}
    sim(stand, "chats", {**personal, "admins": ["@ptb_fallback_1_bot"]})
    for text in ("Hello from the test user's channel", "A second post"):
        bot_upload(stand, "sendMessage", {"chat_id": str(PERSONAL_CHANNEL), "text": text}, "none", "none", b"")
    sim(stand, "profile", {"user": PERSON, "personal_chat": PERSONAL_CHANNEL})
    data = checkout / "tests" / "data"
    game = {**GAME, "photo": file_part(data / "game.png"), "animation": file_part(data / "game.gif")}
    sim(stand, f"bots/{BOT_ID}/games", game)
    sim(stand, "clock", {"advance": 3 * 86400})


def main(argv: list[str]) -> int:
    if not argv or not (Path(argv[0]) / "tests" / "conftest.py").is_file():
        print(__doc__)
        return 2
    checkout = Path(argv[0]).resolve()
    work = Path(tempfile.mkdtemp(prefix="ptb-suite-"))
    plain, secure = free_port(), free_port()
    stand_env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "tgfake", "--addr", f"127.0.0.1:{plain}", "--poll-max", "1s", "--token", TOKEN]
    command += ["--bot-username", "ptb_fallback_1_bot", "--bot-name", "PTB tests fallback 1"]
    log = (work / "stand.log").open("w")
    stand = subprocess.Popen(command, env=stand_env, stdout=log, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{plain}"
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(f"{url}/sim/state", timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or stand.poll() is not None:
                    raise SystemExit(f"the stand did not start; see {work / 'stand.log'}") from None
                time.sleep(0.1)
        cert, key = self_signed(work)
        tls_front(cert, key, secure, plain)
        set_up_world(url, checkout)
        (work / "pytest.ini").write_text(INI)
        env = {**os.environ, "PTB_STAND_URL": f"https://127.0.0.1:{secure}"}
        env |= {"SSL_CERT_FILE": str(cert), "GITHUB_ACTIONS": "true", "TEST_WITH_OPT_DEPS": "false"}
        env["PYTHONPATH"] = os.pathsep.join([str(checkout), str(ROOT)])
        pytest = [sys.executable, "-m", "pytest", "-c", str(work / "pytest.ini"), "--rootdir", str(checkout)]
        pytest += ["-p", "tools.ptb_suite_plugin", "-p", "no:tgfake", "-p", "no:cacheprovider", "-m", "req"]
        print(f"stand {url} (TLS front https://127.0.0.1:{secure}), log {work / 'stand.log'}", flush=True)
        return subprocess.call([*pytest, *argv[1:]], cwd=checkout, env=env)
    finally:
        stand.terminate()
        stand.wait(10)
        log.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
