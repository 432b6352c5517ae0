// The wire types the panel reads, named once (all inferred from the zod schemas in src/protocol).
import type { PanelSnapshot, PanelTranscript } from '../../src/protocol/webview.js';
import type { ApprovalDto } from '../../src/protocol/approvals.js';
import type {
	AttentionStateDto, CheckpointDto, IssueControlsDto, IssueWithTasksDto, PlanSnapshotDto, PlanTaskDto, RunDto, TaskControlsDto, TaskDto, TranscriptEntryDto,
	WakeDto,
} from '../../src/protocol/dto.js';

export type {
	ApprovalDto, AttentionStateDto, CheckpointDto, IssueControlsDto, IssueWithTasksDto, PanelSnapshot, PanelTranscript, PlanSnapshotDto, PlanTaskDto, RunDto,
	TaskControlsDto, TaskDto, TranscriptEntryDto, WakeDto,
};
export type TaskStatus = TaskDto['status'];
export type ExecutionStatus = PlanSnapshotDto['execution']['status'];
export type CheckpointKind = CheckpointDto['kind'];
export type DeliveryState = IssueWithTasksDto['delivery'];
export type BlockerReason = Exclude<PlanTaskDto['blockerReason'], ''>;
export type StopAnswer = NonNullable<RunDto['stopNotes'][number]['answer']>;
