/** Most octets of a content line, its line break left out (RFC 5545, section 3.1). */
const maxLineOctets = 75;

/**
 * Refolds an iCalendar stream so no line exceeds 75 octets, the leading space of a continuation line
 * counted: ical.js folds after 75 octets of content and then adds that space, making continuation lines 76
 * octets long. Lines are first unfolded (a CRLF followed by a space joins them; values escape their own line
 * breaks, so nothing else contains one), then cut between characters, never inside a UTF-8 sequence.
 */
export function foldContentLines(stream: string): string {
  return stream
    .replace(/\r\n /g, '')
    .split('\r\n')
    .map((line) => foldLine(line))
    .join('\r\n');
}

function foldLine(line: string): string {
  const pieces: string[] = [];
  let piece = '';
  let pieceOctets = 0;
  for (const character of line) {
    const octets = Buffer.byteLength(character, 'utf8');
    // Continuation lines begin with a space, which takes one of their octets.
    const room = pieces.length === 0 ? maxLineOctets : maxLineOctets - 1;
    if (pieceOctets + octets > room) {
      pieces.push(piece);
      piece = '';
      pieceOctets = 0;
    }
    piece += character;
    pieceOctets += octets;
  }
  pieces.push(piece);
  return pieces.join('\r\n ');
}
