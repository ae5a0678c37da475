"""The node path of ``schedlab replay`` (``--machine``, or a job table): a log replayed on a machine of nodes,
every resource honoured, beside the replay of the same jobs on one pool of the machine's cores (issue 65)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from schedlab.errors import UsageError

#: Options of the one-pool replay that mean nothing on nodes (the value each must keep).
POOL_ONLY_OPTIONS = {"procs": None, "order": "fcfs", "estimates": "requested", "conventions": "default",
                     "same_time": None, "passes": None, "no_clean": False, "feedback": False, "format": None}


def takes_the_node_path(args) -> bool:
    """A machine file given, or a job table (which only the node replay reads)."""
    from schedlab.parsers.job_table import is_job_table_path

    return args.machine is not None or args.events is not None or is_job_table_path(args.trace)


def run(args) -> int:
    from schedlab.parsers.job_table import is_job_table_path, read_job_table, resources_from_swf
    from schedlab.parsers.events import read_events
    from schedlab.parsers.machine import infer_machine, read_machine
    from schedlab.parsers.swf import read_swf
    from schedlab.simulators.nodes.replay import cpu_only, pool_policy, replay_on_nodes, wait_summary
    from schedlab.tables import metric_table

    given = [f"--{name.replace('_', '-')}" for name, default in POOL_ONLY_OPTIONS.items()
             if getattr(args, name, default) != default]
    if given:
        raise UsageError(f"{', '.join(given)}: not options of a replay on nodes (--machine, or a job table)")
    if is_job_table_path(args.trace):
        jobs, _ = read_job_table(args.trace)
    else:
        jobs = resources_from_swf(read_swf(args.trace, strict=not args.lenient).jobs)
    jobs = jobs.sort_values("submit_time", kind="stable").reset_index(drop=True)
    name = Path(args.trace).name
    machine = read_machine(args.machine) if args.machine else infer_machine(jobs, name)
    events = read_events(args.events, machine) if args.events else []
    print(f"machine: {machine.name} ({machine.source or 'as given'}): " + ", ".join(
        f"{node.count} x {node.name} ({node.cores} cores, {node.gpus} GPUs, {node.memory_mb / 1024:g} GiB)"
        for node in machine.node_types) + f"; allocation {machine.allocation}")
    began = time.perf_counter()
    replay = replay_on_nodes(jobs, machine, args.policy, events)
    pool = cpu_only(replay)
    elapsed = time.perf_counter() - began
    for reason, count in replay.left_out.items():
        print(f"note: left out {count:,} job(s): {reason}", file=sys.stderr)
    print(f"{args.policy} on {sum(node.count for node in machine.node_types):,} nodes, and the same "
          f"{len(replay.jobs):,} jobs on one pool of its {machine.cores:,} cores (waits in seconds):")
    print(metric_table({"resource-aware": wait_summary(replay.schedule["wait"].to_numpy()),
                        f"CPU-only ({pool_policy(replay)})": wait_summary(pool["wait"].to_numpy())}))
    for event in replay.events:
        print(f"event: {event['event']}: {event['jobs_killed']:,} job(s) killed, {event['jobs_requeued']:,} requeued")
    if events:
        print("(the one pool of cores has no events: it is the replay that ignores nodes, GPUs and memory)")
    print(f"simulated {len(replay.jobs):,} jobs twice in {elapsed:.2f} s")
    if args.out:
        from schedlab.atomic import write_text

        if not args.out.endswith(".csv"):
            raise UsageError(f"--out {args.out}: a replay on nodes writes its schedule as .csv")
        schedule = replay.schedule.assign(cpu_only_start=pool["start"].to_numpy(), cpu_only_wait=pool["wait"].to_numpy())
        write_text(args.out, schedule.to_csv(index=False, lineterminator="\n"))
        print(f"schedule written to {args.out} (csv)")
    return 0
