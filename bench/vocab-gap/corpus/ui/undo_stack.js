// Commands with do/revert; `revert` pops the newest and replays its inverse.
export class UndoStack {
  constructor(limit = 100) {
    this.done = [];
    this.limit = limit;
  }

  run(command) {
    command.do();
    this.done.push(command);
    if (this.done.length > this.limit) this.done.shift();
  }

  revert() {
    const command = this.done.pop();
    if (command) command.revert();
    return command !== undefined;
  }
}
