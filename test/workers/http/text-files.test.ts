import { describe, expect, it } from "vitest";
import { charsetOf, decodeTextFile, encodingWords } from "../../../src/http/text-files";
import { utf16, windows1252 } from "../support/encodings";

/** How an uploaded file's bytes become text: byte order marks, a declared charset, strict UTF-8, then Windows-1252. */

const TEXT = "entity;question;answer\r\nHO-AUR-0001;Parking?;€18 per night, 20 °C – café, açúcar\r\n";

const utf8 = (text: string) => new TextEncoder().encode(text);
const withBytes = (...parts: (Uint8Array | number[])[]) => Uint8Array.from(parts.flatMap((part) => [...part]));

describe("decodeTextFile", () => {
  it("reads UTF-8 without a byte order mark", () => {
    expect(decodeTextFile(utf8(TEXT))).toEqual({ text: TEXT, encoding: "utf-8", source: "detected" });
  });

  it("reads UTF-8 with a byte order mark, and drops the mark", () => {
    expect(decodeTextFile(withBytes([0xef, 0xbb, 0xbf], utf8(TEXT)))).toEqual({ text: TEXT, encoding: "utf-8", source: "bom" });
  });

  it("reads Windows-1252 (Excel's 'CSV (Comma delimited)'): € is 0x80, – is 0x96, é ç ° as in Latin-1", () => {
    const bytes = windows1252(TEXT);
    expect([...bytes]).toEqual(expect.arrayContaining([0x80, 0x96, 0xe9, 0xe7, 0xb0]));
    const read = decodeTextFile(bytes);
    expect(read).toEqual({ text: TEXT, encoding: "windows-1252", source: "detected" });
    expect(encodingWords(read as { encoding: "windows-1252"; source: "detected" })).toBe("Windows-1252 (Excel's 'CSV (Comma delimited)')");
  });

  it("reads UTF-16 little-endian with its mark (Excel's 'Unicode Text', tab-separated)", () => {
    const tabbed = "entity\tquestion\tanswer\r\nHO-AUR-0001\tEstacionamento?\t€18 por noite, pão e café\r\n";
    expect(decodeTextFile(utf16(tabbed, "le"))).toEqual({ text: tabbed, encoding: "utf-16le", source: "bom" });
    expect(encodingWords({ encoding: "utf-16le", source: "bom" })).toBe("UTF-16 little-endian (Excel's 'Unicode Text')");
  });

  it("reads UTF-16 big-endian with its mark", () => {
    expect(decodeTextFile(utf16(TEXT, "be"))).toEqual({ text: TEXT, encoding: "utf-16be", source: "bom" });
  });

  it("honours a declared charset, by its WHATWG label", () => {
    expect(decodeTextFile(windows1252(TEXT), "windows-1252")).toEqual({ text: TEXT, encoding: "windows-1252", source: "declared" });
    expect(decodeTextFile(windows1252(TEXT), "ISO-8859-1")).toMatchObject({ text: TEXT, encoding: "windows-1252" });
    expect(decodeTextFile(utf8(TEXT), "utf-8")).toMatchObject({ text: TEXT, encoding: "utf-8", source: "declared" });
  });

  it("refuses a declared charset it does not read, and bytes that are not in the declared one, by line", () => {
    expect(decodeTextFile(utf8(TEXT), "x-no-such-charset")).toMatchObject({
      line: 1,
      message: expect.stringContaining("x-no-such-charset"),
    });
    expect(decodeTextFile(windows1252("a\nb\nç\n"), "utf-8")).toMatchObject({ line: 3, message: expect.stringContaining("not UTF-8") });
  });

  it("refuses binary: a NUL byte, with its line", () => {
    expect(decodeTextFile(withBytes(utf8("entity,question\nHO,"), [0x00, 0x01], utf8("\n")))).toMatchObject({
      line: 2,
      message: expect.stringContaining("NUL"),
    });
    expect(decodeTextFile(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]))).toMatchObject({ line: 2 });
  });

  it("refuses UTF-16 without a byte order mark (its NUL bytes)", () => {
    expect(decodeTextFile(utf16("entity\tquestion\r\n", "le", false))).toMatchObject({ line: 1, message: expect.stringContaining("NUL") });
  });

  it("refuses broken UTF-16: a lone surrogate, or an odd byte at the end, with its line", () => {
    const lone = withBytes(utf16("a\nb\n", "le"), [0x00, 0xd8, 0x41, 0x00]);
    expect(decodeTextFile(lone)).toMatchObject({ line: 3, message: expect.stringContaining("UTF-16") });
    expect(decodeTextFile(withBytes(utf16("a\nb", "le"), [0x41]))).toMatchObject({ line: 2, message: expect.stringContaining("middle") });
  });

  it("refuses UTF-8 with a byte order mark that turns into something else, with the line", () => {
    expect(decodeTextFile(withBytes([0xef, 0xbb, 0xbf], utf8("a\nb\n"), [0xe9], utf8("\n")))).toMatchObject({
      line: 3,
      message: expect.stringContaining("not UTF-8"),
    });
  });

  it("refuses a file mixing UTF-8 and Windows-1252, naming both lines, rather than turning é into Ã©", () => {
    expect(decodeTextFile(withBytes(utf8("café\n"), windows1252("x\nçà\n")))).toMatchObject({
      line: 3,
      message: "is not UTF-8, though line 1 is: the file mixes two encodings. Save it again as 'CSV UTF-8'",
    });
  });

  it("refuses the five bytes Windows-1252 leaves unassigned", () => {
    expect(decodeTextFile(withBytes(utf8("a\n"), [0x81], utf8("\n")))).toMatchObject({
      line: 2,
      message: expect.stringContaining("U+0081"),
    });
  });
});

describe("charsetOf", () => {
  it.each([
    ["text/csv; charset=windows-1252", "windows-1252"],
    ['text/csv;charset="UTF-16LE"', "UTF-16LE"],
    ["text/csv", undefined],
    [null, undefined],
  ])("reads %j as %j", (header, charset) => {
    expect(charsetOf(header)).toBe(charset);
  });
});
