// The content-part helpers: text, fromBytes, fromPath (sniffing, limits, what is refused) and
// fromUrl (by reference, and data: URLs decoded).

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  DEFAULT_MAX_BYTES,
  fromBytes,
  fromJsonContentPart,
  fromPath,
  fromUrl,
  kindFor,
  sniffMime,
  text,
  toJsonContentPart,
} from "toolnexus-contract";
import { ROOT } from "./paths.js";

const bytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const PNG = bytes("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89");

/** The code and message of what `fn` throws. */
function thrown(fn: () => unknown): { code: unknown; message: string } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof Error, String(err));
    return { code: (err as { code?: unknown }).code, message: err.message };
  }
  assert.fail("nothing was thrown");
}

describe("text", () => {
  it("makes a text part; an empty text carries nothing and is refused", () => {
    assert.deepEqual(text("hello"), { type: "text", text: "hello" });
    assert.equal(toJsonContentPart(text("hello")), '{"type":"text","text":"hello"}');
    assert.throws(() => text(""), /carries nothing/);
    assert.throws(() => text(5 as unknown as string), TypeError);
  });
});

describe("fromBytes", () => {
  it("encodes standard base64 with padding (RFC 4648 test vectors)", () => {
    const cases: [string, string][] = [
      ["f", "Zg=="],
      ["fo", "Zm8="],
      ["foo", "Zm9v"],
      ["foob", "Zm9vYg=="],
      ["fooba", "Zm9vYmE="],
      ["foobar", "Zm9vYmFy"],
    ];
    for (const [raw, b64] of cases) {
      assert.equal(fromBytes(bytes(raw), "application/octet-stream").data, b64, raw);
    }
    // No bytes: an empty `data` is omitted, and a part that carries nothing is refused.
    assert.throws(() => fromBytes(new Uint8Array(0), "image/png"), /at least one byte/);
    // Every byte value, and a length across the encoder's chunks, as Node.js's Buffer writes them.
    const all = Uint8Array.from({ length: 3 * 4096 + 257 }, (_, i) => (i * 7) & 0xff);
    assert.equal(fromBytes(all, "a/b").data, Buffer.from(all).toString("base64"));
  });

  it("takes the kind from the MIME family: image, audio, else file (video too)", () => {
    const cases: [string, string][] = [
      ["image/png", "image"],
      ["IMAGE/svg+xml", "image"],
      [" audio/ogg", "audio"],
      ["video/mp4", "file"],
      ["application/pdf", "file"],
      ["text/plain", "file"],
      ["imagery", "file"],
    ];
    for (const [mime, kind] of cases) {
      assert.equal(kindFor(mime), kind, mime);
      assert.equal(fromBytes(bytes("hi"), mime).type, kind, mime);
    }
  });

  it("names the part when asked, and needs a MIME type", () => {
    assert.equal(
      toJsonContentPart(fromBytes(bytes("hi"), "application/pdf", { name: "a.pdf" })),
      '{"type":"file","mimeType":"application/pdf","data":"aGk=","name":"a.pdf"}',
    );
    assert.deepEqual(thrown(() => fromBytes(bytes("hi"), "")), {
      code: "missing-mime-type",
      message: 'a part needs a MIME type such as "image/png", got ""',
    });
    assert.deepEqual(thrown(() => fromBytes(bytes("hi"), "  ")), { code: "bad-mime-type", message: 'the MIME type "  " is blank' });
    assert.deepEqual(thrown(() => fromBytes(bytes("hi"), "text/plain\r\nX-Evil: 1")), {
      code: "bad-mime-type",
      message: 'the MIME type "text/plain\\r\\nX-Evil: 1" holds a control character (U+000D) at index 10',
    });
  });

  it("names the part with control and bidi formatting characters shown as U+FFFD", () => {
    assert.equal(fromBytes(bytes("hi"), "application/pdf", { name: "invoice\u202egpj.exe" }).name, "invoice\ufffdgpj.exe");
    assert.equal(fromBytes(bytes("hi"), "application/pdf", { name: "a\u001b[2Jb.pdf" }).name, "a\ufffd[2Jb.pdf");
  });

  it("takes the name in an options object, as Python takes name= and Rust .with_name()", () => {
    const positional = fromBytes as (b: Uint8Array, m: string, n: unknown) => unknown;
    assert.match(
      thrown(() => positional(bytes("hi"), "application/pdf", "a.pdf")).message,
      /fromBytes takes its name in an options object, fromBytes\(\.\.\., \{ name: "a\.png" \}\); got string/,
    );
    assert.match(thrown(() => fromBytes(bytes("hi"), "a/b", { name: 7 as unknown as string })).message, /name must be a string/);
    assert.deepEqual(fromBytes(bytes("hi"), "a/b", {}), { type: "file", mimeType: "a/b", data: "aGk=" });
  });
});

describe("fromUrl", () => {
  it("keeps any other URL by reference, with the MIME type it is given", () => {
    assert.equal(
      toJsonContentPart(fromUrl("https://e.com/cat.png", "image/png")),
      '{"type":"image","mimeType":"image/png","url":"https://e.com/cat.png"}',
    );
    assert.equal(
      toJsonContentPart(fromUrl("https://e.com/v.mp4", "video/mp4", { name: "v.mp4" })),
      '{"type":"file","mimeType":"video/mp4","url":"https://e.com/v.mp4","name":"v.mp4"}',
    );
  });

  it("refuses a URL without a MIME type, saying so", () => {
    for (const mime of [undefined, ""]) {
      const { message } = thrown(() => fromUrl("https://e.com/cat.png", mime));
      assert.match(message, /needs its MIME type/);
      assert.match(message, /https:\/\/e\.com\/cat\.png/);
    }
    assert.match(thrown(() => fromUrl("", "image/png")).message, /non-empty URL/);
  });

  it("decodes a data: URL into mimeType and data", () => {
    assert.equal(
      toJsonContentPart(fromUrl("data:image/png;base64,aGk=")),
      '{"type":"image","mimeType":"image/png","data":"aGk="}',
    );
    // Upper-case scheme and BASE64, percent-encoded base64; a given MIME type wins.
    assert.deepEqual(fromUrl("DATA:audio/wav;BASE64,%2B%2F8%3D", "audio/x-wav"), {
      type: "audio",
      mimeType: "audio/x-wav",
      data: "+/8=",
    });
    // Not base64: percent-encoded bytes ("a b" then é as UTF-8, a lone % kept); parameters kept.
    const plain = fromUrl("data:text/plain;charset=utf-8,a%20b%C3%A9%");
    assert.equal(plain.mimeType, "text/plain;charset=utf-8");
    assert.equal(plain.type, "file");
    assert.deepEqual([...Buffer.from(plain.data ?? "", "base64")], [0x61, 0x20, 0x62, 0xc3, 0xa9, 0x25]);
    // Characters outside ASCII in the URL itself are their UTF-8 bytes.
    assert.equal(fromUrl("data:,é").data, "w6k=");
    // No media type: text/plain;charset=US-ASCII, as RFC 2397 says.
    assert.deepEqual(fromUrl("data:,x"), { type: "file", mimeType: "text/plain;charset=US-ASCII", data: "eA==" });
  });

  it("refuses a malformed data: URL", () => {
    assert.match(thrown(() => fromUrl("data:image/png;base64")).message, /comma/);
    for (const bad of ["data:image/png;base64,aGk", "data:;base64,a!==", "data:a/b;base64,aGk=%0A"]) {
      assert.deepEqual(thrown(() => fromUrl(bad)), {
        code: "bad-data-url",
        message: "the data: URL's base64 is not valid (standard alphabet, with padding)",
      }, bad);
    }
    // A raw line break is no part of any URL.
    assert.equal(thrown(() => fromUrl("data:a/b;base64,aGk=\n")).code, "bad-url");
  });

  it("keeps only http and https URLs by reference", () => {
    assert.deepEqual(thrown(() => fromUrl("javascript:alert(1)", "text/html")), {
      code: "bad-url",
      message: 'the URL "javascript:alert(1)" is not an http or https URL (javascript:, file:, data: and others are refused)',
    });
    assert.equal(thrown(() => fromUrl("file:///etc/shadow", "text/plain")).code, "bad-url");
    assert.equal(fromUrl("HTTPS://example.com/a.png", "image/png").url, "HTTPS://example.com/a.png");
  });
});

describe("fromPath", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-parts-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: Uint8Array | string): string => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it("sniffs the content first, then the extension, and names the part", () => {
    const shot = fromPath(file("shot.dat", PNG));
    assert.equal(shot.type, "image");
    assert.equal(shot.mimeType, "image/png");
    assert.equal(shot.name, "shot.dat");
    assert.deepEqual([...Buffer.from(shot.data ?? "", "base64")], [...PNG]);
    assert.deepEqual(fromPath(file("notes.md", "# hi")), { type: "file", mimeType: "text/markdown", data: "IyBoaQ==", name: "notes.md" });
    assert.equal(fromPath(file("blob", bytes("\0\x01\x02"))).mimeType, "application/octet-stream");
    assert.throws(() => fromPath(file("empty.wav", "")), /empty\.wav is empty: a part carries content/);
    assert.throws(() => fromBytes(new Uint8Array(0), "audio/wav"), /at least one byte/);
    const clip = fromPath(file("clip.bin", bytes("\0\0\0\x20ftypisom")));
    assert.deepEqual([clip.type, clip.mimeType], ["file", "video/mp4"]);
  });

  it("reads the repository's fixture as the Rust and Python helpers do", () => {
    const path = join(ROOT, "examples", "media", "fixture.png");
    const part = fromPath(path);
    assert.deepEqual([part.type, part.mimeType, part.name], ["image", "image/png", "fixture.png"]);
    assert.equal(part.data, readFileSync(path).toString("base64"));
    assert.deepEqual(fromJsonContentPart(toJsonContentPart(part)), part);
  });

  it("refuses a missing file, a directory and a file over the limit, naming the path", () => {
    const missing = thrown(() => fromPath(join(dir, "missing.png")));
    assert.equal(missing.code, "ENOENT");
    assert.match(missing.message, /missing\.png/);
    const sub = join(dir, "sub");
    mkdirSync(sub);
    const isDir = thrown(() => fromPath(sub));
    assert.equal(isDir.code, "EISDIR");
    assert.match(isDir.message, /is a directory/);
    const ten = file("ten.bin", new Uint8Array(10));
    assert.equal(fromPath(ten, { maxBytes: 10 }).data, "AAAAAAAAAAAAAA==");
    const big = thrown(() => fromPath(ten, { maxBytes: 9 }));
    assert.equal(big.code, "EFBIG");
    assert.match(big.message, /ten\.bin/);
    assert.match(big.message, /limit of 9 bytes/);
    assert.equal(DEFAULT_MAX_BYTES, 20 * 1024 * 1024);
  });

  it("refuses a FIFO without blocking", { skip: process.platform === "win32" && "no FIFOs" }, () => {
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const err = thrown(() => fromPath(fifo));
    assert.equal(err.code, "ENOTREG");
    assert.match(err.message, /not a regular file/);
  });

  it("refuses a device that reports no size", { skip: process.platform === "win32" && "no /dev/zero" }, () => {
    assert.equal(thrown(() => fromPath("/dev/zero")).code, "ENOTREG");
  });
});

describe("sniffMime", () => {
  it("knows the magic bytes of common formats before the extension", () => {
    const cases: [string, string, string][] = [
      ["\x89PNG\r\n\x1a\n....", ".txt", "image/png"],
      ["\xff\xd8\xff\xe0", "", "image/jpeg"],
      ["GIF89a", "", "image/gif"],
      ["RIFF\0\0\0\0WEBPVP8 ", "", "image/webp"],
      ["RIFF\0\0\0\0WAVEfmt ", "", "audio/wav"],
      ["RIFF\0\0\0\0AVI LIST", "", "video/x-msvideo"],
      ["%PDF-1.7", "", "application/pdf"],
      ["OggS\0", "", "audio/ogg"],
      ["fLaC", "", "audio/flac"],
      ["ID3\x04", "", "audio/mpeg"],
      ["\xff\xfb\x90", "", "audio/mpeg"],
      ["\0\0\0\x20ftypisom", "", "video/mp4"],
      ["\0\0\0\x20ftypM4A ", "", "audio/mp4"],
      ["\0\0\0\x14ftypqt  ", "", "video/quicktime"],
      ["\x1a\x45\xdf\xa3\x9fB\x82\x84webm", "", "video/webm"],
      ["\x1a\x45\xdf\xa3\x9fB\x82\x88matroska", "", "video/x-matroska"],
      ["II*\0", "", "image/tiff"],
      ["BM....", ".bmp", "image/bmp"],
      ["BM....", ".BMP", "image/bmp"],
    ];
    for (const [head, suffix, want] of cases) {
      assert.equal(sniffMime(bytes(head), suffix), want, JSON.stringify([head, suffix]));
    }
  });

  it("falls back to the extension, then application/octet-stream", () => {
    assert.equal(sniffMime(bytes("hello"), ".TXT"), "text/plain");
    assert.equal(sniffMime(bytes("{}"), ".json"), "application/json");
    assert.equal(sniffMime(bytes("RIFF\0\0\0\0XXXX"), ".wav"), "audio/wav");
    assert.equal(sniffMime(bytes("BM...."), ".txt"), "text/plain");
    assert.equal(sniffMime(bytes(""), ""), "application/octet-stream");
    assert.equal(sniffMime(bytes("\0\x01"), ".bin"), "application/octet-stream");
    assert.equal(sniffMime(bytes(""), ".constructor"), "application/octet-stream");
  });
});
