// spec 4.7: the shell page is public and carries no data.
export const SHELL_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Member-company module</title></head>
<body><main id="svc-admin"><h1>Member-company module</h1></main></body>
</html>
`;
