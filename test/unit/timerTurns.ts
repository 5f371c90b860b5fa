// How often a timer got to run while some work went on: the measure of work that gives way to others on its thread.

/** Starts a timer that reschedules itself at once; the returned function stops it and says how many times it ran. */
export function countTimerTurns(): () => number {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  return () => {
    running = false;
    return turns;
  };
}
