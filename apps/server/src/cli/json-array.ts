/**
 * The elements of a JSON array read from `chunks`, one at a time: only the element being read is held, so memory
 * does not grow with the file. Each element is parsed with JSON.parse.
 */
export async function* jsonArrayElements(chunks: AsyncIterable<string>): AsyncGenerator<unknown> {
  let started = false;
  let ended = false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let element = '';
  let afterComma = false;
  for await (const chunk of chunks) {
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
        continue;
      }
      const space = c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
      if (!started || ended) {
        if (space) continue;
        if (ended || c !== 0x5b)
          throw new SyntaxError(ended ? 'Unexpected data after the JSON array' : 'The file is not a JSON array (it must start with "[")');
        started = true;
        depth = 1;
        from = i + 1;
        continue;
      }
      if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) {
          element += chunk.slice(from, i);
          if (c !== 0x5d) throw new SyntaxError('The JSON array is closed by "}"');
          if (element.trim()) yield JSON.parse(element);
          else if (afterComma) throw new SyntaxError('A "," is not followed by an element');
          element = '';
          ended = true;
          from = i + 1;
        }
      } else if (c === 0x2c && depth === 1) {
        element += chunk.slice(from, i);
        yield JSON.parse(element);
        element = '';
        afterComma = true;
        from = i + 1;
      }
    }
    if (started && !ended) element += chunk.slice(from);
  }
  if (!ended) throw new SyntaxError(started ? 'The JSON array is not closed (the file ends early)' : 'The file is empty');
}
