// Deltas (docs/protocol.md): after a whole `state`, a connection that said `deltas: true` in
// its hello is sent only what changed. applyDelta rebuilds the whole state from the last one.

// The whole state `delta` makes of `last`, or null if it does not follow it (a missed or
// reordered message: the caller asks for a sync, which brings a whole state).
export function applyDelta(last, delta) {
  if (!last || last.type !== "state" || delta.v !== last.v + 1 || !last.game) return null;
  const state = { ...last, type: "state", events: delta.events || [] };
  delete state.explain;
  for (const key of ["v", "version", "game_no", "table", "you", "turn", "explain"]) {
    if (key in delta) state[key] = delta[key];
  }
  const game = { ...last.game, ...(delta.game || {}) };
  for (const [part, rows] of Object.entries(delta.game_rows || {})) {
    const items = game[part].slice();
    for (const [index, item] of Object.entries(rows)) items[Number(index)] = item;
    game[part] = items;
  }
  state.game = game;
  return state;
}
