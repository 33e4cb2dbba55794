// layer: text/encoding
// order: 110
// provides: encodeUTF8, decodeUTF8
// requires:
//
// TextEncoder and TextDecoder (WHATWG Encoding): UTF-8 out; UTF-8, UTF-16LE/BE and
// windows-1252 (which the standard maps "latin1", "ascii" and "iso-8859-1" to) in. Other
// encodings WebKit knows (Shift_JIS, GBK, …) are a RangeError here. Each world gets its own
// classes, made over its own Uint8Array, so `encode()` returns an array of the caller's realm.
(function (ctx) {
  "use strict";

  const LABELS = new Map();
  for (const [encoding, labels] of Object.entries({
    "utf-8": "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8",
    "utf-16le": "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le",
    "utf-16be": "unicodefffe utf-16be",
    "windows-1252": "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 iso88591 " +
      "iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252",
  })) for (const label of labels.split(" ")) LABELS.set(label, encoding);
  // windows-1252 bytes 0x80-0x9F (Encoding index-windows-1252); the other bytes are their code point.
  const CP1252 = [0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
    0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178];
  const REPLACEMENT = 0xFFFD;

  // The code points of a string, lone surrogates replaced (WebIDL USVString).
  function* codePoints(text) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xD800 && c <= 0xDBFF && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xDC00 && d <= 0xDFFF) { yield [0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00), 2]; i++; continue; }
      }
      yield [c >= 0xD800 && c <= 0xDFFF ? REPLACEMENT : c, 1];
    }
  }
  function utf8Length(point) { return point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4; }
  function putUTF8(point, out, at) {
    if (point < 0x80) { out[at] = point; return 1; }
    if (point < 0x800) { out[at] = 0xC0 | (point >> 6); out[at + 1] = 0x80 | (point & 63); return 2; }
    if (point < 0x10000) { out[at] = 0xE0 | (point >> 12); out[at + 1] = 0x80 | ((point >> 6) & 63); out[at + 2] = 0x80 | (point & 63); return 3; }
    out[at] = 0xF0 | (point >> 18); out[at + 1] = 0x80 | ((point >> 12) & 63); out[at + 2] = 0x80 | ((point >> 6) & 63); out[at + 3] = 0x80 | (point & 63);
    return 4;
  }

  function bytesOf(input) {
    if (input === undefined) return new Uint8Array(0);
    if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    if (input instanceof ArrayBuffer || Object.prototype.toString.call(input) === "[object ArrayBuffer]") return new Uint8Array(input);
    throw new TypeError("Argument 1 ('input') to TextDecoder.decode must be an instance of ArrayBuffer or ArrayBufferView");
  }

  // The WHATWG decoders over `bytes` (pending bytes from a streaming call first). Returns
  // [text, bytes left over for the next call]; `fail()` is called for an error in fatal mode.
  function decodeUTF8(bytes, flush, fail) {
    let out = "", needed = 0, seen = 0, point = 0, lower = 0x80, upper = 0xBF, start = 0;
    const emit = (p) => { out += String.fromCodePoint(p); };
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i];
      if (needed === 0) {
        start = i;
        if (b <= 0x7F) { out += String.fromCharCode(b); continue; }
        if (b >= 0xC2 && b <= 0xDF) { needed = 1; point = b & 0x1F; }
        else if (b >= 0xE0 && b <= 0xEF) { if (b === 0xE0) lower = 0xA0; if (b === 0xED) upper = 0x9F; needed = 2; point = b & 0xF; }
        else if (b >= 0xF0 && b <= 0xF4) { if (b === 0xF0) lower = 0x90; if (b === 0xF4) upper = 0x8F; needed = 3; point = b & 0x7; }
        else { fail(); emit(REPLACEMENT); }
        continue;
      }
      if (b < lower || b > upper) {
        needed = seen = point = 0; lower = 0x80; upper = 0xBF;
        fail(); emit(REPLACEMENT);
        i--; // the byte starts over
        continue;
      }
      lower = 0x80; upper = 0xBF;
      point = (point << 6) | (b & 0x3F);
      if (++seen === needed) { emit(point); needed = seen = point = 0; }
    }
    if (needed === 0) return [out, null];
    if (!flush) return [out, bytes.slice(start)];
    fail();
    return [out + String.fromCharCode(REPLACEMENT), null];
  }
  function decodeUTF16(bytes, flush, fail, bigEndian) {
    let out = "", lead = null;
    let i = 0;
    for (; i + 1 < bytes.length; i += 2) {
      const unit = bigEndian ? (bytes[i] << 8) | bytes[i + 1] : bytes[i] | (bytes[i + 1] << 8);
      if (lead !== null) {
        const high = lead;
        lead = null;
        if (unit >= 0xDC00 && unit <= 0xDFFF) { out += String.fromCharCode(high, unit); continue; }
        fail(); out += String.fromCharCode(REPLACEMENT);
      }
      if (unit >= 0xD800 && unit <= 0xDBFF) { lead = unit; continue; }
      if (unit >= 0xDC00 && unit <= 0xDFFF) { fail(); out += String.fromCharCode(REPLACEMENT); continue; }
      out += String.fromCharCode(unit);
    }
    const rest = [];
    if (lead !== null) rest.push(...(bigEndian ? [lead >> 8, lead & 0xFF] : [lead & 0xFF, lead >> 8]));
    if (i < bytes.length) rest.push(bytes[i]);
    if (rest.length === 0) return [out, null];
    if (!flush) return [out, Uint8Array.from(rest)];
    fail();
    return [out + String.fromCharCode(REPLACEMENT), null];
  }
  function decode1252(bytes) {
    let out = "";
    for (const b of bytes) out += String.fromCharCode(b >= 0x80 && b <= 0x9F ? CP1252[b - 0x80] : b);
    return [out, null];
  }

  // UTF-8 for the other layers (fetch's bodies and blobs), over this realm's Uint8Array: lone
  // surrogates become U+FFFD going out; coming in, errors become U+FFFD and a byte order mark
  // stays (WebKit keeps it in Response.text(), recorded in the fetch-api case).
  ctx.encodeUTF8 = (text) => {
    let length = 0;
    for (const [point] of codePoints(text)) length += utf8Length(point);
    const out = new Uint8Array(length);
    let at = 0;
    for (const [point] of codePoints(text)) at += putUTF8(point, out, at);
    return out;
  };
  ctx.decodeUTF8 = (bytes) => decodeUTF8(bytes, true, () => {})[0];

  function makeClasses(WorldUint8Array) {
    const ENCODER = new WeakSet();
    function TextEncoder() {
      if (!new.target) throw new TypeError("Constructor TextEncoder requires 'new'");
      ENCODER.add(this);
    }
    const check = (object, name) => { if (!ENCODER.has(object)) throw new TypeError("The TextEncoder." + name + " method can only be used on instances of TextEncoder"); };
    const encoderMethods = {
      encode(input) {
        check(this, "encode");
        const bytes = ctx.encodeUTF8(input === undefined ? "" : String(input));
        const out = new WorldUint8Array(bytes.length);
        out.set(bytes);
        return out;
      },
      encodeInto(source, destination) {
        check(this, "encodeInto");
        if (!(destination instanceof WorldUint8Array) && Object.prototype.toString.call(destination) !== "[object Uint8Array]") {
          throw new TypeError("Argument 2 ('destination') to TextEncoder.encodeInto must be an instance of Uint8Array");
        }
        let read = 0, written = 0;
        for (const [point, units] of codePoints(String(source))) {
          if (written + utf8Length(point) > destination.length) break;
          written += putUTF8(point, destination, written);
          read += units;
        }
        return { read, written };
      },
    };
    ctx.defineMembers(TextEncoder.prototype, Object.assign({}, encoderMethods, { encoding: { get() { check(this, "encoding"); return "utf-8"; } } }), "TextEncoder");

    const DECODERS = new WeakMap();
    function TextDecoder(label, options) {
      if (!new.target) throw new TypeError("Constructor TextDecoder requires 'new'");
      const name = label === undefined ? "utf-8" : String(label).trim().toLowerCase();
      const encoding = LABELS.get(name);
      if (!encoding) throw new RangeError("Failed to construct 'TextDecoder': The encoding label provided ('" + String(label) + "') is invalid.");
      DECODERS.set(this, { encoding, fatal: Boolean(options && options.fatal), ignoreBOM: Boolean(options && options.ignoreBOM), pending: null, started: false });
    }
    const state = (object, name) => {
      const found = DECODERS.get(object);
      if (!found) throw new TypeError("The TextDecoder." + name + " getter can only be used on instances of TextDecoder");
      return found;
    };
    function decode(input, options) {
      const decoder = state(this, "decode");
      const stream = Boolean(options && options.stream);
      let bytes = bytesOf(input);
      if (decoder.pending) { const joined = new Uint8Array(decoder.pending.length + bytes.length); joined.set(decoder.pending); joined.set(bytes, decoder.pending.length); bytes = joined; }
      decoder.pending = null;
      // Byte order marks are taken off the start of a stream (Encoding "decode").
      if (!decoder.started && !decoder.ignoreBOM && decoder.encoding !== "windows-1252") {
        const bom = decoder.encoding === "utf-8" ? [0xEF, 0xBB, 0xBF] : decoder.encoding === "utf-16le" ? [0xFF, 0xFE] : [0xFE, 0xFF];
        if (bytes.length < bom.length && stream && bom.slice(0, bytes.length).every((b, i) => bytes[i] === b)) { decoder.pending = bytes; return ""; }
        if (bom.every((b, i) => bytes[i] === b)) bytes = bytes.subarray(bom.length);
      }
      if (bytes.length > 0) decoder.started = true;
      const fail = () => { if (decoder.fatal) throw new TypeError("The encoded data was not valid."); };
      let text, rest;
      try {
        [text, rest] = decoder.encoding === "utf-8" ? decodeUTF8(bytes, !stream, fail)
          : decoder.encoding === "windows-1252" ? decode1252(bytes)
          : decodeUTF16(bytes, !stream, fail, decoder.encoding === "utf-16be");
      } catch (error) {
        decoder.started = false;
        throw error;
      }
      decoder.pending = rest;
      if (!stream) decoder.started = false;
      return text;
    }
    const attribute = (name) => ({ get() { return state(this, name)[name]; } });
    ctx.defineMembers(TextDecoder.prototype, { decode, encoding: attribute("encoding"), fatal: attribute("fatal"), ignoreBOM: attribute("ignoreBOM") }, "TextDecoder");
    return { TextEncoder, TextDecoder };
  }

  return {
    name: "encoding",
    // The classes are made when a world first names one (most pages never do).
    world(global) {
      let made = null;
      const classes = () => made || (made = makeClasses(global.Uint8Array));
      ctx.lazyGlobal(global, "TextEncoder", () => classes().TextEncoder, false);
      ctx.lazyGlobal(global, "TextDecoder", () => classes().TextDecoder, false);
    },
  };
})
