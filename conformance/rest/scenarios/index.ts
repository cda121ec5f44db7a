// The scenario drivers, in recording order. One HAR file per driver in conformance/traffic/.
import { browseCatalog } from './browse-catalog.js';
import { customer } from './customer.js';
import { negative } from './negative.js';
import { pos } from './pos.js';
import type { ScenarioDriver } from './session.js';

export const scenarioDrivers: ScenarioDriver[] = [browseCatalog, pos, customer, negative];
