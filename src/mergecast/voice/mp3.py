"""MP3 frames as mergecast writes them: LAME encoding, decoding for measurement, exact
gain steps, and the Info (LAME) header that tells players the exact duration.

Only the stream `encode` makes is handled: MPEG-1 Layer III, mono, CBR, no CRC.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterator
from functools import cache

import numpy as np
import numpy.typing as npt

from ..errors import VoiceError

FRAME_SAMPLES = 1152  # samples per MPEG-1 Layer III frame
ENCODER_DELAY = 576  # LAME's own delay; decoders add their 529 themselves
GAIN_STEP_DB = 1.5051499783  # one global_gain step: 2 ** (1/4) in amplitude
_BITRATES = (0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320)
_RATES = (44100, 48000, 32000)
_SIDE_INFO = 17  # bytes of side information in a mono MPEG-1 frame
_GRANULE_BITS = 59  # side-information bits per granule and channel (mono)
_GAIN_BIT = 18 + 12 + 9  # main_data_begin, private bits, scfsi; part2_3_length, big_values


def encode(pcm16: bytes, rate: int, kbps: int) -> bytes:
    """Constant bitrate mono frames from 16-bit little-endian samples (no tag, no header)."""
    import lameenc

    encoder = lameenc.Encoder()
    encoder.set_bit_rate(kbps)
    encoder.set_in_sample_rate(rate)
    encoder.set_out_sample_rate(rate)
    encoder.set_channels(1)
    encoder.set_quality(2)
    return bytes(encoder.encode(pcm16) + encoder.flush())


def decode(mp3: bytes) -> npt.NDArray[np.float64]:
    """The samples a player hears, decoded by libsndfile (mpg123) as floats."""
    import soundfile

    try:
        samples, _ = soundfile.read(io.BytesIO(mp3), dtype="float64", always_2d=False)
    except (RuntimeError, TypeError, soundfile.LibsndfileError) as exc:
        raise VoiceError(
            f"cannot decode the encoded MP3 to measure its true peak ({exc}); reinstall "
            "mergecast's dependencies (soundfile 0.12 or later bundles an MP3 decoder)"
        ) from exc
    return np.asarray(samples, dtype=np.float64)


def _header(data: bytes, pos: int) -> tuple[int, int] | None:
    """(frame length, sample rate) of the frame header at pos, or None if there is none."""
    if pos + 4 > len(data):
        return None
    b1, b2, b3, b4 = data[pos : pos + 4]
    if b1 != 0xFF or (b2 & 0xFE) != 0xFA or (b4 >> 6) != 3:
        return None  # not sync + MPEG-1 Layer III without CRC, or not mono
    index, rate_index = b3 >> 4, (b3 >> 2) & 3
    if not 0 < index < len(_BITRATES) or rate_index >= len(_RATES):
        return None
    rate = _RATES[rate_index]
    return 144 * _BITRATES[index] * 1000 // rate + ((b3 >> 1) & 1), rate


def frames(data: bytes) -> Iterator[tuple[int, int]]:
    """(offset, length) of each frame, from the first byte on."""
    pos = 0
    while (head := _header(data, pos)) is not None:
        length = head[0]
        if pos + length > len(data):
            break
        yield pos, length
        pos += length
    if pos != len(data):
        raise ValueError(f"not a mono MPEG-1 Layer III stream at byte {pos}")


def lower_gain(data: bytes, steps: int) -> bytes:
    """Every granule `steps` global_gain steps quieter (1.5 dB each): the decoded samples
    scale exactly, with no re-encoding (the lossless change mp3gain makes)."""
    out = bytearray(data)
    for pos, _ in frames(data):
        for granule in range(2):
            bit = (pos + 4) * 8 + _GAIN_BIT + granule * _GRANULE_BITS
            byte, shift = divmod(bit, 8)
            word = int.from_bytes(out[byte : byte + 2], "big")
            gain = (word >> (8 - shift)) & 0xFF
            word &= ~(0xFF << (8 - shift)) & 0xFFFF
            word |= max(0, gain - steps) << (8 - shift)
            out[byte : byte + 2] = word.to_bytes(2, "big")
    return bytes(out)


@cache
def _crc_table() -> tuple[int, ...]:
    table = []
    for n in range(256):
        crc = n
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
        table.append(crc)
    return tuple(table)


def crc16(data: bytes, crc: int = 0) -> int:
    """CRC-16/ARC, the checksum of the LAME tag and of its music data."""
    table = _crc_table()
    for byte in data:
        crc = (crc >> 8) ^ table[(crc ^ byte) & 0xFF]
    return crc


def with_info_header(data: bytes, samples: int, kbps: int) -> bytes:
    """`data` behind an Info frame (Xing's CBR form) with a LAME extension: frame count,
    byte count and a seek table, so players read the duration instead of estimating it,
    and encoder delay and padding, so gapless decoders play exactly `samples` samples."""
    spans = list(frames(data))
    if not spans:
        return data
    head = bytearray(data[:4])
    head[2] &= 0xFD  # no padding byte: the Info frame has a fixed length
    length = _header(bytes(head), 0)
    assert length is not None
    size = length[0]
    total = size + len(data)
    padding = len(spans) * FRAME_SAMPLES - ENCODER_DELAY - samples
    toc = bytes(min(255, i * 256 // 100) for i in range(100))
    body = bytearray(bytes(head) + bytes(_SIDE_INFO))
    body += b"Info" + struct.pack(">III", 0x0F, len(spans), total)
    body += toc + struct.pack(">I", 0)
    lame = bytearray(b"LAME3.100")
    lame += bytes([0x01, 0])  # tag revision 0, CBR; lowpass unknown
    lame += bytes(4 + 2 + 2 + 1)  # peak, radio and audiophile gain, flags: not given
    lame += bytes([min(255, kbps)])
    lame += (ENCODER_DELAY << 12 | max(0, min(4095, padding))).to_bytes(3, "big")
    lame += bytes(1 + 1 + 2)  # misc, mp3 gain, preset
    lame += struct.pack(">IH", total, crc16(data))
    body += lame
    body += struct.pack(">H", crc16(bytes(body)))  # over every byte before it
    frame = bytes(body) + bytes(size - len(body))
    return frame + data


def syncsafe(four: bytes) -> int:
    """An ID3v2 size: four bytes of seven bits each."""
    return (four[0] << 21) | (four[1] << 14) | (four[2] << 7) | four[3]


def strip_id3(data: bytes) -> bytes:
    """The audio frames of `data` without a leading ID3v2 tag (with its footer, if any)."""
    if data[:3] != b"ID3" or len(data) < 10:
        return data
    size = 10 + syncsafe(data[6:10]) + (10 if data[5] & 0x10 else 0)
    return data[size:]
