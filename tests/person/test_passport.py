"""The person shares Telegram Passport data (``POST /sim/passport``): the elements encrypted for the bot's public key
as the Telegram app encrypts them, decrypted here with ``cryptography`` as core.telegram.org/passport says a bot
decrypts them (python-telegram-bot's passportbot.py in tests/contract is the library oracle)."""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import Wire
from tgfake.world.passport import _padded

KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
PUBLIC = KEY.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
DETAILS = {
    "first_name": "Alice",
    "last_name": "Liddell",
    "birth_date": "04.05.1852",
    "gender": "female",
    "country_code": "GB",
    "residence_country_code": "GB",
}


def decrypt(secret: bytes, digest: bytes, data: bytes) -> bytes:
    key_iv = hashlib.sha512(secret + digest).digest()
    decryptor = Cipher(algorithms.AES(key_iv[:32]), modes.CBC(key_iv[32:48])).decryptor()
    padded = decryptor.update(data) + decryptor.finalize()
    assert hashlib.sha256(padded).digest() == digest
    assert 32 <= padded[0] <= 255
    return padded[padded[0] :]


def b64d(value: str) -> bytes:
    return base64.b64decode(value)


async def share(wire: Wire, elements: list[dict[str, Any]], **body: Any) -> tuple[int, Any]:
    return await wire.sim(
        "POST", "/sim/passport", {"public_key": PUBLIC.decode(), "nonce": "n-1", "elements": elements, **body}
    )


async def test_the_bot_decrypts_what_the_person_shared(wire: Wire) -> None:
    await wire.ok("getMe")
    bill = b"%PDF-1.4 a utility bill"
    elements: list[dict[str, Any]] = [
        {"type": "personal_details", "data": DETAILS},
        {"type": "utility_bill", "files": [base64.b64encode(bill).decode()]},
        {"type": "email", "email": "alice@example.org"},
    ]
    status, sent = await share(wire, elements)
    assert status == 200, sent
    [update] = await wire.ok("getUpdates", timeout=0)
    assert update["message"]["message_id"] == sent["message_id"]
    passport = update["message"]["passport_data"]
    creds = passport["credentials"]
    oaep = padding.OAEP(mgf=padding.MGF1(algorithm=hashes.SHA1()), algorithm=hashes.SHA1(), label=None)
    secret = KEY.decrypt(b64d(creds["secret"]), oaep)
    credentials = json.loads(decrypt(secret, b64d(creds["hash"]), b64d(creds["data"])))
    assert credentials["nonce"] == "n-1"
    assert set(credentials["secure_data"]) == {"personal_details", "utility_bill"}  # an email is sent in the clear
    details, utility, email = passport["data"]
    assert email == {"type": "email", "email": "alice@example.org", "hash": email["hash"]}
    data_creds = credentials["secure_data"]["personal_details"]["data"]
    assert json.loads(decrypt(b64d(data_creds["secret"]), b64d(data_creds["data_hash"]), b64d(details["data"]))) == (
        DETAILS
    )
    [passport_file] = utility["files"]
    assert set(passport_file) == {"file_id", "file_unique_id", "file_size", "file_date"}
    got = await wire.ok("getFile", file_id=passport_file["file_id"])
    assert got["file_path"].startswith("passport/")
    download = await wire.client.get(f"/file/bot{wire.token}/{got['file_path']}")
    [file_creds] = credentials["secure_data"]["utility_bill"]["files"]
    assert decrypt(b64d(file_creds["secret"]), b64d(file_creds["file_hash"]), await download.read()) == bill
    # every hash is canonical base64: setPassportDataErrors takes them back
    errors = [{"source": "files", "type": "utility_bill", "file_hashes": [file_creds["file_hash"]], "message": "x"}]
    assert await wire.ok("setPassportDataErrors", user_id=4242, errors=json.dumps(errors)) is True
    assert "[1] alice: [passport data: personal_details, utility_bill, email]" in await wire.text()


@pytest.mark.parametrize(
    ("elements", "body", "error"),
    [
        (
            [{"type": "email", "email": "a@b.c"}],
            {"public_key": "nope"},
            "public_key is not an RSA public key in PEM (the bot's key from BotFather)",
        ),
        ([{"type": "email", "email": "a@b.c"}], {"nonce": ""}, "nonce is required: the bot's request names one"),
        ([], {}, "elements is empty: share at least one"),
        ([{"type": "email", "email": "a@b.c"}] * 2, {}, "each element type is shared once: email given twice"),
        (
            [{"type": "email", "email": "a@b.c"}],
            {"chat_id": -5},
            "Telegram Passport data goes to the bot's private chat: chat_id must be the person's",
        ),
        (
            [{"type": "passport_photo"}],
            {},
            "passport element type must be one of address, bank_statement, driver_license, email, identity_card, "
            "internal_passport, passport, passport_registration, personal_details, phone_number, rental_agreement, "
            "temporary_registration, utility_bill, not 'passport_photo'",
        ),
        ([{"type": "email", "email": "a@b.c", "selfie": "eA=="}], {}, "an email element has no selfie"),
        ([{"type": "utility_bill"}], {}, "a utility_bill element needs its files"),
        ([{"type": "phone_number"}], {}, "a phone_number element needs its phone_number"),
        (
            [{"type": "address", "data": {"city": "London"}}],
            {},
            "the data of an address element needs street_line1, street_line2, state, country_code, post_code (strings)",
        ),
        ([{"type": "utility_bill", "files": ["not base64!"]}], {}, "utility_bill.files[0] is not base64"),
    ],
)
async def test_refusals_name_the_problem(
    wire: Wire, elements: list[dict[str, Any]], body: dict[str, Any], error: str
) -> None:
    assert await share(wire, elements, **body) == (400, {"error": error})
    assert await wire.ok("getUpdates", timeout=0) == []


@given(st.binary(max_size=600))
def test_padding_is_32_to_255_bytes_to_a_multiple_of_16(value: bytes) -> None:
    padded = _padded(value)
    assert len(padded) % 16 == 0
    assert 32 <= padded[0] <= 255
    assert padded[padded[0] :] == value
