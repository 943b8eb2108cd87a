// `vouch reject RUN NODE [--note TEXT]`: see decide-command.ts.
import { decideCommand } from "./decide-command.ts";

export default decideCommand("reject");
