// jest globalSetup: a fresh folder for the run's shared audits (see shared-audits.ts), named to the workers by environment.
import { setUpSharedAudits } from './shared-audits.js';

export default setUpSharedAudits;
