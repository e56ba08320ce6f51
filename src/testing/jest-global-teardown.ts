// jest globalTeardown: removes the run's folder of shared audits.
import { tearDownSharedAudits } from './shared-audits.js';

export default tearDownSharedAudits;
