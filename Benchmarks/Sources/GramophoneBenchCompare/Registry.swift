// Every workload of bench-compare. `scripts/bench-compare` writes this file again when it builds
// these sources against an older library and drops the files that do not compile there: each
// `let …Workloads: [Workload]` of the files left is listed.
let allWorkloads: [Workload] = coreWorkloads + recordingWorkloads + streamWorkloads + webSocketWorkloads
