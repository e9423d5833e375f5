#!/usr/bin/env python3
#
# Copyright (c) 2026, FlexHeap contributors. All rights reserved.
# DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
#
# This code is free software; you can redistribute it and/or modify it
# under the terms of the GNU General Public License version 2 only, as
# published by the Free Software Foundation.  The FlexHeap contributors
# designate this particular file as subject to the "Classpath" exception
# as provided by Oracle in the LICENSE file that accompanied this code.
#
# This code is distributed in the hope that it will be useful, but WITHOUT
# ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
# FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
# version 2 for more details (a copy is included in the LICENSE file that
# accompanied this code).
#
# You should have received a copy of the GNU General Public License version
# 2 along with this work; if not, write to the Free Software Foundation,
# Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
#
#
"""Replace resources of a jimage (a JDK's lib/modules) in place of a relink.

    jimage-replace.py MODULES OUT /module/path/of/resource=FILE ...

Why: the FlexHeap JDK is a base JDK with our libjvm.so. Our JFR event adds a
type to HotSpot's metadata.xml, so jdk.jfr's metadata.bin (inside lib/modules)
must match the new libjvm. The base ships no jmods to relink from, and a full
image build costs far more than CI can spend; lib/modules only needs that one
resource swapped.

Format (jdk.internal.jimage.ImageHeader/ImageLocation): a header of 7 u4
(magic, version, flags, resource count, table length, locations size,
strings size), a redirect table and an offsets table of table-length u4 each,
the location attribute streams, the strings, then the resource bytes.
Resource offsets count from the end of that index, so the new bytes are
appended, the changed locations re-encoded, the index re-laid out and the
resource area copied unchanged behind it (names, hence the redirect table,
do not change).
"""
import os
import struct
import sys

MAGIC = 0xCAFEDADA
HEADER_SLOTS = 7
ATTR_END, ATTR_MODULE, ATTR_PARENT, ATTR_BASE, ATTR_EXTENSION = 0, 1, 2, 3, 4
ATTR_OFFSET, ATTR_COMPRESSED, ATTR_UNCOMPRESSED, ATTR_COUNT = 5, 6, 7, 8


class JImageError(Exception):
    pass


def decode_location(buf, pos):
    """Attribute stream at pos -> list of ATTR_COUNT values."""
    attrs = [0] * ATTR_COUNT
    while pos < len(buf):
        byte = buf[pos]
        pos += 1
        if byte <= 0x7:  # ATTR_END
            return attrs
        kind, length = byte >> 3, (byte & 0x7) + 1
        if kind >= ATTR_COUNT:
            raise JImageError(f"bad location attribute kind {kind}")
        attrs[kind] = int.from_bytes(buf[pos:pos + length], "big")
        pos += length
    raise JImageError("location runs past the locations table")


def encode_location(attrs):
    out = bytearray()
    for kind in range(ATTR_END + 1, ATTR_COUNT):
        value = attrs[kind]
        if value:
            n = (value.bit_length() - 1) >> 3
            out.append((kind << 3) | n)
            out += value.to_bytes(n + 1, "big")
    out.append(ATTR_END << 3)
    return bytes(out)


def string_at(strings, offset):
    end = strings.index(b"\0", offset)
    return strings[offset:end].decode("utf-8")


def location_name(attrs, strings):
    """'/module/parent/base.extension', as jimage names resources."""
    module = string_at(strings, attrs[ATTR_MODULE])
    parent = string_at(strings, attrs[ATTR_PARENT])
    base = string_at(strings, attrs[ATTR_BASE])
    ext = string_at(strings, attrs[ATTR_EXTENSION])
    name = f"/{module}/" if module else "/"
    if parent:
        name += parent + "/"
    name += base
    if ext:
        name += "." + ext
    return name


def replace(modules_path, out_path, replacements):
    """replacements: {'/jdk.jfr/jdk/jfr/internal/types/metadata.bin': bytes}."""
    with open(modules_path, "rb") as f:
        data = f.read()
    if len(data) < HEADER_SLOTS * 4:
        raise JImageError(f"{modules_path}: too short for a jimage")
    for order in ("<", ">"):
        header = list(struct.unpack_from(f"{order}{HEADER_SLOTS}I", data, 0))
        if header[0] == MAGIC:
            break
    else:
        raise JImageError(f"{modules_path}: not a jimage (bad magic)")
    _, version, _, _, table_len, loc_size, str_size = header
    if version >> 16 != 1:
        raise JImageError(f"{modules_path}: jimage version {version >> 16}.{version & 0xffff} unsupported")
    hdr = HEADER_SLOTS * 4
    redirect = data[hdr:hdr + 4 * table_len]
    offsets = struct.unpack_from(f"{order}{table_len}I", data, hdr + 4 * table_len)
    loc_start = hdr + 8 * table_len
    locations = data[loc_start:loc_start + loc_size]
    strings = data[loc_start + loc_size:loc_start + loc_size + str_size]
    index_size = loc_start + loc_size + str_size
    resources = data[index_size:]

    appended = bytearray()
    pending = dict(replacements)
    # The writer leaves leading byte(s) unused: offset 0 reads as "no entry".
    new_locations = bytearray(locations[:min(offsets, default=0)])
    moved = {}  # old location offset -> new one
    new_offsets = []
    for off in offsets:
        if off not in moved:
            attrs = decode_location(locations, off)
            name = location_name(attrs, strings)
            if name in pending:
                content = pending.pop(name)
                attrs[ATTR_OFFSET] = len(resources) + len(appended)
                attrs[ATTR_COMPRESSED] = 0
                attrs[ATTR_UNCOMPRESSED] = len(content)
                appended += content
            moved[off] = len(new_locations)
            new_locations += encode_location(attrs)
        new_offsets.append(moved[off])
    if pending:
        raise JImageError("not in the image: " + ", ".join(sorted(pending)))

    header[5] = len(new_locations)
    tmp = out_path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack(f"{order}{HEADER_SLOTS}I", *header))
        f.write(redirect)
        f.write(struct.pack(f"{order}{table_len}I", *new_offsets))
        f.write(new_locations)
        f.write(strings)
        f.write(resources)
        f.write(appended)
    os.replace(tmp, out_path)


def main(argv):
    if len(argv) < 4 or any("=" not in a for a in argv[3:]):
        print("usage: jimage-replace.py MODULES OUT /module/path=FILE ...", file=sys.stderr)
        return 2
    repl = {}
    for arg in argv[3:]:
        name, path = arg.split("=", 1)
        with open(path, "rb") as f:
            repl[name] = f.read()
    try:
        replace(argv[1], argv[2], repl)
    except (JImageError, OSError) as e:
        print(f"jimage-replace: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
