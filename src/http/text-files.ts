/**
 * Text files as spreadsheets and editors save them, read from their bytes. A byte order mark says UTF-8 or UTF-16
 * (Excel's "CSV UTF-8" and "Unicode Text"); a charset the sender declares is honoured; otherwise strict UTF-8 is
 * tried first, and Windows-1252 (Excel's "CSV (Comma delimited)" in western locales) is taken only when the bytes
 * read as plain text in it. Decoding is the platform's TextDecoder (the WHATWG encodings). A file that cannot be
 * read as text is refused with the line of its first bad place, never read with replacement characters.
 */

export type TextEncoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

/** How the encoding was known: a byte order mark, the sender's charset, or the bytes themselves. */
export type EncodingSource = "bom" | "declared" | "detected";

export interface DecodedText {
  text: string;
  encoding: TextEncoding;
  source: EncodingSource;
}

export interface UndecodableText {
  /** The line (1-based) of the first place that cannot be read. */
  line: number;
  message: string;
}

const BOMS: { bytes: number[]; encoding: TextEncoding }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: "utf-8" },
  { bytes: [0xff, 0xfe], encoding: "utf-16le" },
  { bytes: [0xfe, 0xff], encoding: "utf-16be" },
];

const NAMES: Record<TextEncoding, string> = {
  "utf-8": "UTF-8",
  "utf-16le": "UTF-16 little-endian",
  "utf-16be": "UTF-16 big-endian",
  "windows-1252": "Windows-1252",
};

/** The encoding as a content team knows it: its name, and the spreadsheet's save option that writes it. */
export function encodingWords({ encoding, source }: Pick<DecodedText, "encoding" | "source">): string {
  if (source === "declared") return `${NAMES[encoding]} (as the upload's charset said)`;
  if (encoding === "windows-1252") return "Windows-1252 (Excel's 'CSV (Comma delimited)')";
  if (encoding === "utf-8") return source === "bom" ? "UTF-8 with a byte order mark (Excel's 'CSV UTF-8')" : "UTF-8";
  return `${NAMES[encoding]} (Excel's 'Unicode Text')`;
}

/** The charset parameter of a Content-Type header, if it names one. */
export function charsetOf(contentType: string | null | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? "");
  return match?.[1];
}

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);

/** Whether the first `length` bytes decode without error, but for a character the bytes after them would complete. */
function decodesUpTo(bytes: Uint8Array, length: number, encoding: TextEncoding): boolean {
  try {
    new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, length), { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The longest prefix of `bytes` that `encoding` decodes without error (what a stream would have read before failing). */
function readablePrefix(bytes: Uint8Array, encoding: TextEncoding): number {
  const decodes = (length: number) => decodesUpTo(bytes, length, encoding);
  let [good, bad] = [0, bytes.length];
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (decodes(middle)) good = middle;
    else bad = middle;
  }
  return good;
}

/** The line at `offset` of `bytes` read as `encoding`: one more than the line feeds before it. */
function lineAtByte(bytes: Uint8Array, offset: number, encoding: TextEncoding): number {
  return lineAtChar(
    new TextDecoder(encoding, { fatal: false, ignoreBOM: true }).decode(bytes.subarray(0, offset)),
    Number.POSITIVE_INFINITY,
  );
}

function lineAtChar(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < Math.min(index, text.length); i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/**
 * Characters no text file of ours holds: C0 controls but tab, line feed and carriage return (a NUL is binary, or
 * UTF-16 without its byte order mark), and in Windows-1252 also the C1 controls its five unassigned bytes decode to.
 */
// eslint-disable-next-line no-control-regex -- control characters are what these find
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_OR_C1 = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

const controlProblem = (text: string, pattern: RegExp): UndecodableText | null => {
  const at = pattern.exec(text);
  if (!at) return null;
  const code = at[0].charCodeAt(0);
  return {
    line: lineAtChar(text, at.index),
    message:
      code === 0
        ? "holds a NUL byte: the file is not text, or is UTF-16 without a byte order mark. Save it again as 'CSV UTF-8'"
        : `holds the control character U+${code.toString(16).toUpperCase().padStart(4, "0")}, which is not text. Save the file again as 'CSV UTF-8'`,
  };
};

/**
 * The first place of `bytes` (not UTF-8) that is a UTF-8 sequence of a western letter or symbol (Ã© for é, â€ for
 * the start of € or –): such a file mixes UTF-8 with another encoding, and read as Windows-1252 those would turn
 * into two or three wrong characters each.
 */
function utf8SequenceAt(bytes: Uint8Array): number {
  const continuation = (byte: number | undefined) => byte !== undefined && byte >= 0x80 && byte <= 0xbf;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i]!;
    if ((byte === 0xc2 || byte === 0xc3) && continuation(bytes[i + 1])) return i;
    if (byte >= 0xe0 && byte <= 0xef && continuation(bytes[i + 1]) && continuation(bytes[i + 2])) return i;
  }
  return -1;
}

function decodeAs(bytes: Uint8Array, encoding: TextEncoding, source: EncodingSource): DecodedText | UndecodableText {
  const words = NAMES[encoding];
  try {
    const text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
    const control = controlProblem(text, encoding === "windows-1252" ? CONTROL_OR_C1 : CONTROL);
    return control ?? { text, encoding, source };
  } catch {
    const end = decodesUpTo(bytes, bytes.length, encoding);
    const offset = end ? bytes.length : readablePrefix(bytes, encoding);
    return {
      line: lineAtByte(bytes, offset, encoding),
      message: end
        ? `ends in the middle of a character: the file is not whole ${words}. Save it again`
        : `is not ${words} from here on, though the file ${source === "bom" ? "starts with the byte order mark of" : "was declared as"} ${words}. Save it again as 'CSV UTF-8'`,
    };
  }
}

/**
 * The text of a file's `bytes`, with the encoding read and how it was known, or why it cannot be read. `charset`
 * (a Content-Type's) is honoured when there is no byte order mark; one this service does not read is refused.
 */
export function decodeTextFile(bytes: Uint8Array, charset?: string | null): DecodedText | UndecodableText {
  const bom = BOMS.find((mark) => startsWith(bytes, mark.bytes));
  if (bom) return decodeAs(bytes.subarray(bom.bytes.length), bom.encoding, "bom");
  if (charset) {
    let encoding: string;
    try {
      // The WHATWG labels: latin1, iso-8859-1 and us-ascii are all read as windows-1252, as browsers read them.
      encoding = new TextDecoder(charset.trim()).encoding;
    } catch {
      encoding = "";
    }
    if (!(encoding in NAMES)) {
      return { line: 1, message: `is declared as charset ${charset}, which is not read here: send UTF-8, UTF-16 or Windows-1252` };
    }
    return decodeAs(bytes, encoding as TextEncoding, "declared");
  }
  const utf8 = decodeAs(bytes, "utf-8", "detected");
  if ("text" in utf8 || utf8.message.startsWith("holds")) return utf8;
  const mixed = utf8SequenceAt(bytes);
  if (mixed !== -1) {
    return {
      line: utf8.line,
      message: `is not UTF-8, though line ${lineAtByte(bytes, mixed, "windows-1252")} is: the file mixes two encodings. Save it again as 'CSV UTF-8'`,
    };
  }
  return decodeAs(bytes, "windows-1252", "detected");
}

export const isDecoded = (read: DecodedText | UndecodableText): read is DecodedText => "text" in read;
