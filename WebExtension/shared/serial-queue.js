// One-at-a-time execution for read-modify-write changes to storage and rules: a task starts
// after every earlier task has settled, so two changes never interleave their awaits.
"use strict";

var ADVSerialQueue = {
  /** A function that runs each task it is given after the previous one has finished. */
  make() {
    let queue = Promise.resolve();
    return (task) => {
      const run = queue.then(task, task);
      queue = run.catch(() => {});
      return run;
    };
  },
};
