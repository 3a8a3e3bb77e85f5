"""Entities Telegram finds in any text by itself: TDLib's find_entities.

mention (``@name``, 5..32 characters, or one of Telegram's short bot names), bot_command (``/cmd`` or
``/cmd@bot`` anywhere in the text), hashtag, cashtag (``$USD``), bank_card_number (Luhn-valid, known lengths),
url (``tg://``, ``ton://``, and ``http(s)``/``ftp`` links or bare domains with a known top-level domain) and
email. phone_number is not TDLib's (the server finds it by a rule that is not public): ``server_entities`` adds
the one form known to be found, an international number written as ``+`` and digits (``phone_numbers``).

The matchers follow TDLib's byte-level scanners over code points; character classes come from Python's Unicode
database (TDLib's own table is a newer Unicode version; only characters unassigned in Python's differ).
"""

from __future__ import annotations

import re
import unicodedata

from tgfake.text.entities import Entity, sort_entities
from tgfake.text.tlds import COMMON_TLDS

_SHORT_USERNAMES = frozenset({"gif", "nft", "pic", "ufc", "vid"})
_BAD_PATH_END = ".:;,('?!`"
_ALNUM_ = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_ALNUM = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_DIGIT = re.compile("[0-9]")
_CARD_RUN = re.compile("[0-9][0-9 -]{12,}")
"""What any card number needs: 13 digits or more in a run of digits, spaces and dashes (bank_cards finds none
without one, so most texts skip its scan)."""
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _cat(c: str) -> str:
    """TDLib's simple category: L (letter), D (decimal digit), N (other number), Z (separator) or ''."""
    if c in _ALNUM:
        return "D" if c <= "9" else "L"
    cat = unicodedata.category(c)
    if cat[0] == "L":
        return "L"
    if cat == "Nd":
        return "D"
    if cat[0] == "N":
        return "N"
    if cat[0] == "Z":
        return "Z"
    return ""


def _word(c: str) -> bool:
    return c == "_" or _cat(c) in ("L", "D", "N")


def _hashtag_letter(c: str) -> bool:
    if c in _ALNUM_:
        return True
    return c in "\u200c\u00b7" or "\u0d80" <= c <= "\u0dff" or _cat(c) in ("L", "D")


def _lower(text: str) -> str:
    return text.translate(_LOWER)


def mentions(s: str) -> list[tuple[int, int]]:
    out = []
    n = len(s)
    pos = 0
    while (p := s.find("@", pos)) >= 0:
        if p > 0 and _word(s[p - 1]):
            pos = p + 1
            continue
        e = p + 1
        while e < n and s[e] in _ALNUM_:
            e += 1
        pos = e
        size = e - p - 1
        if size < 2 or size > 32 or (e < n and _word(s[e])):
            continue
        if size < 4 and _lower(s[p + 1 : e]) not in _SHORT_USERNAMES:
            continue
        out.append((p, e))
    return out


def bot_commands(s: str) -> list[tuple[int, int]]:
    out = []
    n = len(s)
    pos = 0
    while (p := s.find("/", pos)) >= 0:
        if p > 0 and (_word(s[p - 1]) or s[p - 1] in "/<>"):
            pos = p + 1
            continue
        e = p + 1
        while e < n and s[e] in _ALNUM_:
            e += 1
        pos = e
        if not 1 <= e - p - 1 <= 64:
            continue
        end = e
        if e < n and s[e] == "@":
            me = e + 1
            while me < n and s[me] in _ALNUM_:
                me += 1
            pos = me
            if not 3 <= me - e - 1 <= 32:
                continue
            end = me
        if pos < n and (_word(s[pos]) or s[pos] in "/<>"):
            continue
        out.append((p, end))
    return out


def hashtags(s: str) -> list[tuple[int, int]]:
    out = []
    n = len(s)
    pos = 0
    while (p := s.find("#", pos)) >= 0:
        if p > 0 and _hashtag_letter(s[p - 1]):
            pos = p + 1
            continue
        ptr = p + 1
        size = 0
        end = -1
        was_letter = False
        while ptr < n and _hashtag_letter(s[ptr]):
            ptr += 1
            if size == 255:
                end = ptr
            if size != 256:
                was_letter = was_letter or _cat(s[ptr - 1]) == "L"
                size += 1
        if end < 0:
            end = ptr
        pos = ptr
        if size < 1:
            continue
        if end == ptr and ptr < n and s[ptr] == "@":
            ue = ptr + 1
            while ue < n and ue - ptr < 33 and s[ue] in _ALNUM_:
                ue += 1
            if ue - ptr - 1 >= 3:
                ptr = end = pos = ue
        if (ptr < n and s[ptr] == "#") or not was_letter:
            continue
        out.append((p, end))
    return out


def cashtags(s: str) -> list[tuple[int, int]]:
    out = []
    n = len(s)
    pos = 0
    while (p := s.find("$", pos)) >= 0:
        if p > 0 and (_hashtag_letter(s[p - 1]) or s[p - 1] == "$"):
            pos = p + 1
            continue
        ptr = p + 1
        if s.startswith("1INCH", ptr):
            ptr += 5
        else:
            while ptr < n and "A" <= s[ptr] <= "Z":
                ptr += 1
        end = pos = ptr
        if not 1 <= end - p - 1 <= 8:
            continue
        if ptr < n and s[ptr] == "@":
            ue = ptr + 1
            while ue < n and s[ue] in _ALNUM_:
                ue += 1
            if 3 <= ue - ptr - 1 <= 32:
                end = ptr = pos = ue
        if end != n and (_hashtag_letter(s[ptr]) or s[ptr] == "$"):
            continue
        out.append((p, end))
    return out


def _valid_card(number: str) -> bool:
    digits = [int(c) for c in number if c.isascii() and c.isdigit()]
    total = 0
    for i, d in enumerate(reversed(digits)):
        total += d if i % 2 == 0 else (2 * d if d < 5 else 2 * d - 9)
    if total % 10:
        return False
    count = len(digits)
    p2 = digits[0] * 10 + digits[1]
    p4 = p2 * 100 + digits[2] * 10 + digits[3]
    if digits[0] == 4:  # Visa
        return count in (13, 16, 18, 19)
    if 51 <= p2 <= 55 or 2221 <= p4 <= 2720:  # Mastercard
        return count == 16
    if p2 in (34, 37):  # American Express
        return count == 15
    if p2 in (62, 81):  # UnionPay
        return count >= 16
    if 2200 <= p4 <= 2204:  # MIR
        return count == 16
    return True


def bank_cards(s: str) -> list[tuple[int, int]]:
    out = []
    n = len(s)
    ptr = 0
    while True:
        m = _DIGIT.search(s, ptr)
        if m is None:
            break
        ptr = m.start()
        if ptr > 0 and (s[ptr - 1] in ".,+-_" or _cat(s[ptr - 1]) == "L"):
            while ptr < n and (s[ptr] in "0123456789 -"):
                ptr += 1
            continue
        begin = ptr
        digits = 0
        while ptr < n and s[ptr] in "0123456789 -":
            if s[ptr] == " " and 16 <= digits <= 19 and digits == ptr - begin:
                break  # a continuous card number
            digits += s[ptr] != " " and s[ptr] != "-"
            ptr += 1
        if not 13 <= digits <= 19:
            continue
        end = ptr
        while not s[end - 1].isdigit():
            end -= 1
        if end - begin > 2 * digits - 1:
            continue
        if end != n and (s[end] in "-_" or _cat(s[end]) == "L"):
            continue
        if _valid_card(s[begin:end]):
            out.append((begin, end))
    return out


def _url_symbol(c: str) -> bool:
    if "\u2000" <= c <= "\u206f":
        return c in "\u200c\u200d" or "\u2010" <= c <= "\u2015"
    return _cat(c) != "Z"


def _path_symbol(c: str) -> bool:
    return c not in '\n<>"«»' and _url_symbol(c)


def _path_end(s: str, start: int) -> int:
    """Where a path beginning with ``s[start]`` (``/``, ``?`` or ``#``) ends, trailing punctuation left out."""
    end = start + 1
    n = len(s)
    while end < n and _path_symbol(s[end]):
        end += 1
    while end > start + 1 and s[end - 1] in _BAD_PATH_END:
        end -= 1
    return end if s[start] == "/" or end > start + 1 else start


def tg_urls(s: str) -> list[tuple[int, int]]:
    out = []
    n = len(s)
    ptr = 0
    while n - ptr > 5:
        p = s.find(":", ptr)
        if p < 0:
            break
        begin = -1
        if s.startswith("//", p + 1):
            if p >= 2 and _lower(s[p - 2 : p]) == "tg":
                begin = p - 2
            elif p >= 3 and _lower(s[p - 3 : p]) == "ton":
                begin = p - 3
            elif p >= 7 and _lower(s[p - 7 : p]) == "tonsite":
                begin = p - 3  # sic: TDLib starts a tonsite:// link at "ite://"
        if begin < 0:
            ptr = p + 1
            continue
        ptr = p + 3
        domain = ptr
        while ptr < n and ptr - domain != 253 and (s[ptr] in _ALNUM_ or s[ptr] == "-"):
            ptr += 1
        if ptr == domain:
            continue
        if ptr < n and s[ptr] in "/?#":
            ptr = _path_end(s, ptr)
        out.append((begin, ptr))
    return out


def _domain_symbol(c: str) -> bool:
    if c < "\u00c0":
        return c in _ALNUM_ or c in ".-~"
    return _url_symbol(c)


def _user_data_symbol(c: str) -> bool:
    return c not in "\n/[]{}()'`<>\"@«»" and _url_symbol(c)


def _protocol_symbol(c: str) -> bool:
    if c < "\u0080":
        return c in _ALNUM or c in "+-"
    return _cat(c) != "Z"


def _match_urls(s: str) -> list[tuple[int, int]]:
    out = []
    n = len(s)
    base = 0
    while True:
        dot = s.find(".", base)
        if dot < 0 or dot + 1 == n:
            break
        if s[dot + 1] == " ":
            base = dot + 2
            continue
        db = dot
        while db != base and _domain_symbol(s[db - 1]):
            db -= 1
        last_at = -1
        de = dot
        while de < n:
            if s[de] == "@":
                last_at = de
            elif not _domain_symbol(s[de]):
                break
            de += 1
        if last_at >= 0:
            while db != base and _user_data_symbol(s[db - 1]):
                db -= 1
        ue = de
        if ue < n and s[ue] == ":":
            pe = ue + 1
            while pe < n and "0" <= s[pe] <= "9":
                pe += 1
            pb = ue + 1
            while pb != pe and s[pb] == "0":
                pb += 1
            if pb != pe and pe - pb <= 5 and int(s[pb:pe]) <= 65535:
                ue = pe
        if ue < n and s[ue] in "/?#":
            ue = _path_end(s, ue)
        while ue > dot + 1 and s[ue - 1] == ".":
            ue -= 1
        bad = False
        ub = db
        if ub != base and s[ub - 1] == "@":
            if last_at >= 0:
                bad = True
            udb = ub - 1
            while udb != base and _user_data_symbol(s[udb - 1]):
                udb -= 1
            if udb == ub - 1:
                bad = True
            ub = udb
        if ub != base:
            if ub - base >= 6 and s.startswith("://", ub - 3):
                pb = ub - 3
                while pb != base and _protocol_symbol(s[pb - 1]):
                    pb -= 1
                protocol = _lower(s[pb : ub - 3])
                if protocol.endswith("http") and protocol != "shttp":
                    ub -= 7
                elif protocol.endswith("https"):
                    ub -= 8
                elif protocol.endswith("ftp") and protocol not in ("tftp", "sftp"):
                    ub -= 6
                elif protocol.endswith("tonsite"):
                    ub -= 10
                else:
                    bad = True
            elif _word(s[ub - 1]) or s[ub - 1] in "/#@":
                bad = True
        if not bad:
            if ue > dot + 1:
                out.append((ub, ue))
            while ue < n and s[ue] == ".":
                ue += 1
        else:
            while s[ue - 1] != ".":
                ue -= 1
        if ue <= dot:
            ue = dot + 1
        base = ue
    return out


def is_email(s: str) -> bool:
    user, at, domain = s.partition("@")
    if not at or not domain:
        return False
    prev = 0
    parts = 0
    for i, c in enumerate(user):
        if c in ".+":
            if i - prev >= 27:
                return False
            parts += 1
            prev = i + 1
        elif not (c in _ALNUM_ or c == "-"):
            return False
    if parts + 1 >= 12:
        return False
    if not 0 < len(user) - prev < 36:
        return False
    labels = domain.split(".")
    if not 1 < len(labels) <= 7:
        return False
    tld = labels.pop()
    if not 1 < len(tld.encode()) < 9 or not all(c.isascii() and c.isalpha() for c in tld):
        return False
    for label in labels:
        if not label or len(label.encode()) >= 31:
            return False
        if not all(c in _ALNUM_ or c == "-" for c in label):
            return False
        if label[0] not in _ALNUM or label[-1] not in _ALNUM:
            return False
    return True


def _common_tld(tld: str) -> bool:
    if tld.isascii() and tld.isalpha() and tld.islower():
        return tld in COMMON_TLDS
    lowered = tld.lower()
    if lowered != tld and lowered[1:] == tld[1:]:
        return False
    return lowered in COMMON_TLDS


def fix_url(url: str) -> str:
    """The link a matched candidate really is (trailing punctuation and unbalanced brackets cut), or ""."""
    full = url
    has_protocol = False
    head = _lower(url[:10])
    if head.startswith(("http://", "https://", "ftp://", "tonsite://")):
        url = url[url.find(":") + 3 :]
        has_protocol = True
    cut = [i for i in (url.find("/"), url.find("?"), url.find("#")) if i >= 0]
    domain_end = min([len(url), *cut])
    domain, path = url[:domain_end], url[domain_end:]
    at = domain.find("@")
    if at >= 0:
        domain = domain[at + 1 :]
    colon = domain.rfind(":")
    if colon >= 0:
        domain = domain[:colon]
    if len(domain.encode()) == 12 and domain[:1] in "tT" and _lower(domain) == "teiegram.org":
        return ""
    balance = {"(": 0, "[": 0, "{": 0}
    closing = {")": "(", "]": "[", "}": "{"}
    pos = 0
    while pos < len(path):
        c = path[pos]
        if c in balance:
            balance[c] += 1
        elif c in closing:
            balance[closing[c]] -= 1
        if min(balance.values()) < 0:
            break
        pos += 1
    while pos > 0 and path[pos - 1] in _BAD_PATH_END:
        pos -= 1
    full = full[: len(full) - (len(path) - pos)]

    prev = 0
    count = 0
    has_non_digit = False
    is_ipv4 = True
    for i in range(len(domain) + 1):
        if i == len(domain) or domain[i] == ".":
            part = domain[prev:i]
            size = len(part.encode())
            if size == 0 or size >= 64 or domain[i - 1] == "-":
                return ""
            if is_ipv4:
                if size > 3:
                    is_ipv4 = False
                if size == 3 and (part[0] >= "3" or (part[0] == "2" and (part[1] >= "6" or part[1:] >= "56"))):
                    is_ipv4 = False
                if part[0] == "0" and size >= 2:
                    is_ipv4 = False
            count += 1
            if i != len(domain):
                prev = i + 1
        elif not "0" <= domain[i] <= "9":
            is_ipv4 = False
            has_non_digit = True
    if count == 1:
        return ""
    if is_ipv4 and count == 4:
        return full
    if not has_non_digit:
        return ""
    tld = domain[prev:]
    if len(tld) <= 1:
        return ""
    if tld.startswith("xn--"):
        if len(tld) <= 5 or not all(c in _ALNUM for c in tld[4:]):
            return ""
    else:
        if "_" in tld or "-" in tld:
            return ""
        if not has_protocol and not _common_tld(tld):
            return ""
    prev -= 1
    while prev > 0:
        prev -= 1
        if domain[prev] == "_":
            return ""
        if domain[prev] == ".":
            break
    return full


def urls(s: str) -> list[tuple[int, int, bool]]:
    """(begin, end, is_email) of every link and email address."""
    out = []
    for begin, end in _match_urls(s):
        candidate = s[begin:end]
        if is_email(candidate):
            out.append((begin, end, True))
        elif candidate.startswith("mailto:") and is_email(candidate[7:]):
            out.append((begin + 7, end, True))
        else:
            fixed = fix_url(candidate)
            if fixed:
                out.append((begin, begin + len(fixed), False))
    return out


def phone_numbers(s: str) -> list[tuple[int, int]]:
    """``+`` and 7..15 digits (E.164's longest), joined to no word, digit or ``+`` on either side.

    The server's rule is not public; this is the writing Telegram is seen to mark (pyTelegramBotAPI's online
    test_extract_entity sends ``+12125550123`` and gets a phone_number). Spaced, bracketed or dashed numbers, and
    numbers without the ``+``, are left undetected rather than guessed."""
    out = []
    n = len(s)
    pos = 0
    while (p := s.find("+", pos)) >= 0:
        e = p + 1
        while e < n and "0" <= s[e] <= "9":
            e += 1
        pos = max(e, p + 1)
        if not 7 <= e - p - 1 <= 15 or (p > 0 and (_word(s[p - 1]) or s[p - 1] == "+")):
            continue
        if e < n and (_word(s[e]) or s[e] == "+"):
            continue
        out.append((p, e))
    return out


def server_entities(text: str, skip_bot_commands: bool = False) -> list[Entity]:
    """What the server adds to a stored text: TDLib's finds and the phone numbers TDLib leaves to the server."""
    return _find(text, skip_bot_commands, phones=True)


def find_entities(text: str, skip_bot_commands: bool = False) -> list[Entity]:
    """Every entity TDLib's find_entities would add to ``text``, non-overlapping, with UTF-16 offsets."""
    return _find(text, skip_bot_commands, phones=False)


def _find(text: str, skip_bot_commands: bool, phones: bool) -> list[Entity]:
    found: list[tuple[int, int, str]] = []
    if "@" in text:
        found += [(b, e, "mention") for b, e in mentions(text)]
    if not skip_bot_commands and "/" in text:
        found += [(b, e, "bot_command") for b, e in bot_commands(text)]
    if "#" in text:
        found += [(b, e, "hashtag") for b, e in hashtags(text)]
    if "$" in text:
        found += [(b, e, "cashtag") for b, e in cashtags(text)]
    if _CARD_RUN.search(text):
        found += [(b, e, "bank_card_number") for b, e in bank_cards(text)]
    if phones and "+" in text:
        found += [(b, e, "phone_number") for b, e in phone_numbers(text)]
    if ":" in text:
        found += [(b, e, "url") for b, e in tg_urls(text)]
    if "." in text:
        found += [(b, e, "email" if mail else "url") for b, e, mail in urls(text)]
    if not found:
        return []
    found.sort(key=lambda f: (f[0], -(f[1] - f[0])))
    kept: list[tuple[int, int, str]] = []
    last_end = 0
    for f in found:
        if f[0] >= last_end:
            kept.append(f)
            last_end = f[1]
    if text.isascii() or all(c <= "\uffff" for c in text):
        entities = [Entity(kind, b, e - b) for b, e, kind in kept]
    else:
        units = [0]
        for c in text:
            units.append(units[-1] + (2 if c > "\uffff" else 1))
        entities = [Entity(kind, units[b], units[e] - units[b]) for b, e, kind in kept]
    sort_entities(entities)
    return entities
