"""Small valid audio files of silence, built from the formats' own specifications (no codec needed).

Each format is the shortest stream a decoder accepts as that format: WAV and raw PCM of 16-bit mono
samples; MP3 as MPEG-1 Layer III frames whose side information is all zero (a decoder's silence);
FLAC with a STREAMINFO block and frames of one CONSTANT subframe, CRC-8 and CRC-16 included; Opus
in Ogg (OpusHead, OpusTags, then 20 ms packets of a silent CELT frame), page CRCs included; AAC as
ADTS frames holding a single channel element with no spectral data. Text-to-speech answers carry
them so a bot can store, forward or measure what it got.
"""

from __future__ import annotations

import io
import struct
import wave
from collections.abc import Callable

__all__ = ["CONTENT_TYPES", "FORMATS", "SAMPLE_RATE", "silence"]

SAMPLE_RATE = 24_000  # what OpenAI's speech models produce


def _wav(seconds: float) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(SAMPLE_RATE)
        file.writeframes(bytes(2 * round(seconds * SAMPLE_RATE)))
    return out.getvalue()


def _pcm(seconds: float) -> bytes:
    return bytes(2 * round(seconds * SAMPLE_RATE))


# MPEG-1 Layer III, no CRC, 128 kbit/s, 44.1 kHz, no padding, mono: 417-byte frames of 1152 samples.
_MP3_HEADER = bytes([0xFF, 0xFB, 0x90, 0xC0])
_MP3_FRAME = _MP3_HEADER + bytes(417 - len(_MP3_HEADER))


def _mp3(seconds: float) -> bytes:
    return _MP3_FRAME * max(2, round(seconds * 44_100 / 1152))


def _crc(data: bytes, width: int, poly: int) -> int:
    """A most-significant-bit-first CRC with initial value 0 and no final XOR (FLAC's and Ogg's kind)."""
    top, mask = 1 << (width - 1), (1 << width) - 1
    crc = 0
    for byte in data:
        crc ^= byte << (width - 8)
        for _ in range(8):
            crc = ((crc << 1) ^ poly) & mask if crc & top else (crc << 1) & mask
    return crc


def _crc8(data: bytes) -> int:
    return _crc(data, 8, 0x07)


def _crc16(data: bytes) -> int:
    return _crc(data, 16, 0x8005)


_FLAC_BLOCK = 4096


def _flac_frame(number: int) -> bytes:
    """One fixed-blocksize frame: 4096 samples at 24 kHz, mono, 16 bit, one CONSTANT subframe of 0."""
    if number >= 0x80:
        raise ValueError("frame numbers past 127 need a longer UTF-8 code")
    header = bytes([0xFF, 0xF8, 0xC7, 0x08, number])
    header += bytes([_crc8(header)])
    body = header + b"\x00" + b"\x00\x00"  # subframe header (CONSTANT, no wasted bits), the 16-bit value
    return body + struct.pack(">H", _crc16(body))


def _flac(seconds: float) -> bytes:
    frames = max(1, min(0x7F, round(seconds * SAMPLE_RATE / _FLAC_BLOCK)))
    total = frames * _FLAC_BLOCK
    info = struct.pack(">HH", _FLAC_BLOCK, _FLAC_BLOCK) + b"\x00" * 6  # block sizes; frame sizes unknown
    # 20 bits sample rate, 3 bits channels - 1, 5 bits bits per sample - 1, 36 bits total samples
    packed = (SAMPLE_RATE << 44) | (0 << 41) | (15 << 36) | total
    info += packed.to_bytes(8, "big") + bytes(16)  # MD5 unknown (zero) is allowed
    block = bytes([0x80]) + len(info).to_bytes(3, "big") + info  # last metadata block, STREAMINFO
    return b"fLaC" + block + b"".join(_flac_frame(n) for n in range(frames))


def _ogg_crc(data: bytes) -> int:
    return _crc(data, 32, 0x04C11DB7)


_OGG_SERIAL = 0x7467_6661  # "tgfa"


def _ogg_page(packets: list[bytes], *, sequence: int, granule: int, flags: int) -> bytes:
    segments = bytearray()
    for packet in packets:
        if len(packet) >= 255:
            raise ValueError("packets here are shorter than one lacing value")
        segments.append(len(packet))
    header = b"OggS" + struct.pack("<BBqIII", 0, flags, granule, _OGG_SERIAL, sequence, 0)
    page = header + bytes([len(segments)]) + bytes(segments) + b"".join(packets)
    crc = _ogg_crc(page)
    return page[:22] + struct.pack("<I", crc) + page[26:]


_OPUS_PRESKIP = 312
_OPUS_SILENCE = b"\xf8\xff\xfe"  # TOC: CELT-only fullband 20 ms, mono, one frame; then a silent frame


def _opus(seconds: float) -> bytes:
    head = b"OpusHead" + struct.pack("<BBHIhB", 1, 1, _OPUS_PRESKIP, SAMPLE_RATE, 0, 0)
    vendor = b"tgfake"
    tags = b"OpusTags" + struct.pack("<I", len(vendor)) + vendor + struct.pack("<I", 0)
    packets = max(1, min(250, round(seconds / 0.02)))
    return (
        _ogg_page([head], sequence=0, granule=0, flags=0x02)
        + _ogg_page([tags], sequence=1, granule=0, flags=0)
        + _ogg_page(
            [_OPUS_SILENCE] * packets, sequence=2, granule=_OPUS_PRESKIP + packets * 960, flags=0x04
        )
    )


def _aac_silent_block() -> bytes:
    """A raw AAC-LC block: one single channel element with max_sfb 0 (no spectral data), then END."""
    fields = [
        (0, 3),  # id_syn_ele: SCE
        (0, 4),  # element_instance_tag
        (100, 8),  # global_gain
        (0, 1), (0, 2), (0, 1), (0, 6), (0, 1),  # ics_info: reserved, window sequence/shape, max_sfb, no predictor
        (0, 1), (0, 1), (0, 1),  # no pulse, TNS or gain control data
        (7, 3),  # ID_END
    ]  # fmt: skip
    bits = "".join(format(value, f"0{width}b") for value, width in fields)
    bits += "0" * (-len(bits) % 8)
    return int(bits, 2).to_bytes(len(bits) // 8, "big")


_AAC_BLOCK = _aac_silent_block()
_AAC_RATE_INDEX = 6  # 24 kHz


def _adts_frame() -> bytes:
    length = 7 + len(_AAC_BLOCK)
    header = (
        (0xFFF << 44)  # syncword
        | (0 << 43) | (0 << 41) | (1 << 40)  # MPEG-4, layer 0, no CRC
        | (1 << 38)  # profile: AAC LC (object type 2, minus one)
        | (_AAC_RATE_INDEX << 34)
        | (1 << 30)  # channel configuration: mono
        | (length << 13)
        | (0x7FF << 2)  # buffer fullness: variable bit rate
    )  # fmt: skip
    return header.to_bytes(7, "big") + _AAC_BLOCK


def _aac(seconds: float) -> bytes:
    return _adts_frame() * max(2, round(seconds * SAMPLE_RATE / 1024))


FORMATS: dict[str, Callable[[float], bytes]] = {
    "mp3": _mp3,
    "opus": _opus,
    "aac": _aac,
    "flac": _flac,
    "wav": _wav,
    "pcm": _pcm,
}
CONTENT_TYPES: dict[str, str] = {
    "mp3": "audio/mpeg",
    "opus": "audio/ogg",
    "aac": "audio/aac",
    "flac": "audio/flac",
    "wav": "audio/wav",
    "pcm": "audio/pcm",
}


def silence(audio_format: str, seconds: float) -> bytes:
    """``seconds`` of silence (at least one frame) as a file of ``audio_format`` (a key of FORMATS)."""
    return FORMATS[audio_format](seconds)
