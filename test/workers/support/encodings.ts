/**
 * Bytes as spreadsheets save text, built by hand so a test does not decode with the code it checks: Windows-1252
 * (Excel's "CSV (Comma delimited)") and UTF-16 (Excel's "Unicode Text"). Plain TypeScript: the end-to-end files use
 * it too.
 */

/** The Windows-1252 bytes of `text`: Latin-1 letters are their own code, these punctuation marks and € are not. */
export function windows1252(text: string): Uint8Array {
  const special: Record<string, number> = { "€": 0x80, "…": 0x85, "’": 0x92, "“": 0x93, "”": 0x94, "–": 0x96, "—": 0x97 };
  return Uint8Array.from([...text], (char) => {
    const byte = special[char] ?? char.charCodeAt(0);
    if (byte > 0xff) throw new Error(`${char} is not in Windows-1252`);
    return byte;
  });
}

/** The UTF-16 bytes of `text`, with the byte order mark Excel writes first unless `bom` is false. */
export function utf16(text: string, endian: "le" | "be" = "le", bom = true): Uint8Array {
  const units = [...(bom ? [0xfeff] : []), ...Array.from({ length: text.length }, (_, i) => text.charCodeAt(i))];
  const bytes = new Uint8Array(units.length * 2);
  const view = new DataView(bytes.buffer);
  units.forEach((unit, i) => view.setUint16(i * 2, unit, endian === "le"));
  return bytes;
}
