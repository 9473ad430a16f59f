/** Command and view ids of sending files (submit, vetting, submissions history); package.json lists the same. */
export const SendCommands = {
  submit: 'cantonLedger.files.submit',
  preview: 'cantonLedger.files.preview',
  submitPreviewed: 'cantonLedger.files.submitPreviewed',
  vettingDryRun: 'cantonLedger.files.vettingDryRun',
  vettingApply: 'cantonLedger.files.vettingApply',
  uploadDar: 'cantonLedger.packages.uploadDar',
  openSubmissionResult: 'cantonLedger.submissions.openResult',
  resubmit: 'cantonLedger.submissions.resubmit',
  retrySameCommandId: 'cantonLedger.submissions.retry',
  lookUpSubmission: 'cantonLedger.submissions.lookUp',
  copyCommandId: 'cantonLedger.submissions.copyCommandId',
  clearSubmissions: 'cantonLedger.submissions.clear',
} as const;

export const SUBMISSIONS_VIEW = 'cantonLedger.submissions';
