"""The person shares Telegram Passport data with a bot: what the Telegram app does with a bot's passport request.

The app encrypts every element for the bot (core.telegram.org/passport, "Decrypting data"): each value is padded
with 32-255 random bytes (the first holds their count) to a multiple of 16, hashed with SHA-256, and encrypted with
AES-256-CBC under a key and IV taken from SHA-512(secret + hash) of a fresh 32-byte secret; files likewise. The
secrets and hashes go into the credentials (with the bot's ``nonce``), encrypted the same way, whose secret is
encrypted with RSA-OAEP (SHA-1) for the public key the bot asked with. The message then carries ``passport_data``
(``EncryptedPassportElement`` list, ``EncryptedCredentials``), its files are stored encrypted for getFile. Plain
state and bytes, no aiohttp; ``cryptography`` does the ciphers.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from tgfake.content import Media
from tgfake.errors import SimError
from tgfake.filestore import mint
from tgfake.world.person import inject

if TYPE_CHECKING:
    from tgfake.action_models import PassportElementIn, PassportIn
    from tgfake.world.telegram import Telegram

DATA = frozenset(("personal_details", "passport", "driver_license", "identity_card", "internal_passport", "address"))
IDENTITY = frozenset(("passport", "driver_license", "identity_card", "internal_passport"))
DOCUMENTS = frozenset(
    ("utility_bill", "bank_statement", "rental_agreement", "passport_registration", "temporary_registration")
)
CONTACTS = frozenset(("phone_number", "email"))
TYPES = DATA | DOCUMENTS | CONTACTS
"""EncryptedPassportElement types, and which of its fields each carries (the Bot API's table)."""
_DATA_FIELDS = {
    "personal_details": ("first_name", "last_name", "birth_date", "gender", "country_code", "residence_country_code"),
    "address": ("street_line1", "street_line2", "city", "state", "country_code", "post_code"),
    **dict.fromkeys(IDENTITY, ("document_no", "expiry_date")),
}
"""The fields the Telegram app always fills in (PersonalDetails, ResidentialAddress, IdDocumentData)."""
_ALLOWED = {
    "data": DATA,
    "phone_number": frozenset(("phone_number",)),
    "email": frozenset(("email",)),
    "files": DOCUMENTS,
    "front_side": IDENTITY,
    "reverse_side": frozenset(("driver_license", "identity_card")),
    "selfie": IDENTITY,
    "translation": IDENTITY | DOCUMENTS,
}


def _padded(value: bytes) -> bytes:
    """32-255 random bytes before the value, their count in the first, the total a multiple of 16."""
    pad = 32 + (-(len(value) + 32)) % 16
    pad += 16 * secrets.randbelow((255 - pad) // 16 + 1)
    return bytes([pad]) + secrets.token_bytes(pad - 1) + value


def encrypt(value: bytes) -> tuple[bytes, bytes, bytes]:
    """(encrypted, hash, secret) of one value, as the Telegram app encrypts a passport value or file."""
    padded = _padded(value)
    digest = hashlib.sha256(padded).digest()
    secret = secrets.token_bytes(32)
    key_iv = hashlib.sha512(secret + digest).digest()
    encryptor = Cipher(algorithms.AES(key_iv[:32]), modes.CBC(key_iv[32:48])).encryptor()
    return encryptor.update(padded) + encryptor.finalize(), digest, secret


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


@dataclass(slots=True)
class _Sealed:
    """One element as it goes out: the Bot API object, its credentials, and the hashes its own hash is made of."""

    element: dict[str, Any] = field(default_factory=dict)
    credentials: dict[str, Any] = field(default_factory=dict)
    hashes: list[bytes] = field(default_factory=list)


def _file_bytes(where: str, raw: str) -> bytes:
    try:
        data = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        raise SimError(400, f"{where} is not base64") from None
    if not data:
        raise SimError(400, f"{where} is empty")
    return data


def _seal_file(
    stand: Telegram, sealed: _Sealed, where: str, raw: str, date: int
) -> tuple[dict[str, Any], dict[str, str]]:
    encrypted, digest, secret = encrypt(_file_bytes(where, raw))
    stored = mint(stand, "passport", "file.jpg", encrypted)
    sealed.hashes.append(digest)
    passport_file = {
        "file_id": stored.file_id,
        "file_unique_id": stored.unique_id,
        "file_size": stored.size,
        "file_date": date,
    }
    return passport_file, {"file_hash": _b64(digest), "secret": _b64(secret)}


def _a(kind: str) -> str:
    """``an email``, ``an identity_card``, but ``a utility_bill``."""
    return f"an {kind}" if kind[0] in "aeio" else f"a {kind}"


def _check(item: PassportElementIn) -> None:
    if item.type not in TYPES:
        raise SimError(400, f"passport element type must be one of {', '.join(sorted(TYPES))}, not {item.type!r}")
    given = {
        "data": item.data is not None,
        "phone_number": bool(item.phone_number),
        "email": bool(item.email),
        "files": bool(item.files),
        "front_side": bool(item.front_side),
        "reverse_side": bool(item.reverse_side),
        "selfie": bool(item.selfie),
        "translation": bool(item.translation),
    }
    for name, present in given.items():
        if present and item.type not in _ALLOWED[name]:
            raise SimError(400, f"{_a(item.type)} element has no {name}")
    needed = "data" if item.type in DATA else "files" if item.type in DOCUMENTS else item.type
    if not given[needed]:
        raise SimError(400, f"{_a(item.type)} element needs its {needed}")
    missing = [name for name in _DATA_FIELDS.get(item.type, ()) if not isinstance((item.data or {}).get(name), str)]
    if missing:
        raise SimError(400, f"the data of {_a(item.type)} element needs {', '.join(missing)} (strings)")


def _seal(stand: Telegram, item: PassportElementIn, date: int) -> _Sealed:
    sealed = _Sealed(element={"type": item.type})
    if item.data is not None:
        encrypted, digest, secret = encrypt(json.dumps(item.data, ensure_ascii=False).encode())
        sealed.element["data"] = _b64(encrypted)
        sealed.credentials["data"] = {"data_hash": _b64(digest), "secret": _b64(secret)}
        sealed.hashes.append(digest)
    for name in ("phone_number", "email"):
        value = getattr(item, name)
        if value:
            sealed.element[name] = value
            sealed.hashes.append(hashlib.sha256(value.encode()).digest())
    for name in ("files", "translation"):
        many: list[str] = getattr(item, name)
        if many:
            pairs = [_seal_file(stand, sealed, f"{item.type}.{name}[{i}]", raw, date) for i, raw in enumerate(many)]
            sealed.element[name] = [f for f, _ in pairs]
            sealed.credentials[name] = [c for _, c in pairs]
    for name in ("front_side", "reverse_side", "selfie"):
        raw = getattr(item, name)
        if raw:
            sealed.element[name], sealed.credentials[name] = _seal_file(stand, sealed, f"{item.type}.{name}", raw, date)
    sealed.element["hash"] = _b64(hashlib.sha256(b"".join(sealed.hashes)).digest())
    return sealed


def _public_key(pem: str) -> RSAPublicKey:
    try:
        key = load_pem_public_key(pem.encode())
    except (ValueError, TypeError, UnsupportedAlgorithm):
        key = None
    if not isinstance(key, RSAPublicKey):
        raise SimError(400, "public_key is not an RSA public key in PEM (the bot's key from BotFather)")
    return key


def share(stand: Telegram, body: PassportIn) -> tuple[int, int]:
    """``POST /sim/passport``: the person sends the bot the elements it asked for; returns (message id, update id)."""
    key = _public_key(body.public_key)
    if not body.nonce:
        raise SimError(400, "nonce is required: the bot's request names one")
    if not body.elements:
        raise SimError(400, "elements is empty: share at least one")
    types = [item.type for item in body.elements]
    twice = sorted({t for t in types if types.count(t) > 1})
    if twice:
        raise SimError(400, f"each element type is shared once: {', '.join(twice)} given twice")
    if body.chat_id < 0:
        raise SimError(400, "Telegram Passport data goes to the bot's private chat: chat_id must be the person's")
    for item in body.elements:
        _check(item)
    date = stand.unix_now()
    sealed = [_seal(stand, item, date) for item in body.elements]
    secure_data = {item.type: s.credentials for item, s in zip(body.elements, sealed, strict=True) if s.credentials}
    plain = json.dumps({"secure_data": secure_data, "nonce": body.nonce}, ensure_ascii=False).encode()
    encrypted, digest, secret = encrypt(plain)
    oaep = padding.OAEP(
        mgf=padding.MGF1(algorithm=hashes.SHA1()), algorithm=hashes.SHA1(), label=None
    )  # Telegram's choice
    credentials = {"data": _b64(encrypted), "hash": _b64(digest), "secret": _b64(key.encrypt(secret, oaep))}
    passport_data = {"data": [s.element for s in sealed], "credentials": credentials}
    return inject(stand, body, "", media=Media("passport_data", fields=passport_data))
