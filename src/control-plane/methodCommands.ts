// The `tutti` command that calls each method, for hints such as "run `tutti plan issue schedule --help`".
// The CLI's command table is the source of truth; test/unit/control-plane checks that the two agree.
import type { Method } from '../protocol/controlPlane.js';

export const methodCommands: Readonly<Record<Method, string>> = {
	'hello': 'tutti',
	'session/open': 'tutti session open',
	'agent/list': 'tutti agent list',
	'issue/create': 'tutti issue create',
	'issue/get': 'tutti issue get',
	'issue/list': 'tutti issue list',
	'issue/update': 'tutti issue update',
	'issue/pause': 'tutti issue pause',
	'issue/resume': 'tutti issue resume',
	'issue/stop': 'tutti issue stop',
	'task/add': 'tutti issue task add',
	'task/update': 'tutti issue task update',
	'task/delete': 'tutti issue task delete',
	'plan/create': 'tutti plan issue create',
	'plan/get': 'tutti plan issue get',
	'plan/schedule': 'tutti plan issue schedule',
	'plan/mutate': 'tutti plan issue mutate',
	'plan/acknowledge': 'tutti plan issue acknowledge',
	'plan/complete': 'tutti plan issue complete',
	'plan/stop': 'tutti plan issue stop',
	'plan/resume': 'tutti plan issue resume',
	'run/get': 'tutti run get',
	'run/list': 'tutti run list',
	'run/stop': 'tutti run stop',
	'run/log': 'tutti run log',
	'run/report': 'tutti run report',
};
