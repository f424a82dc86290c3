/**
 * A file sent as the request's body, with how much of it has gone: XMLHttpRequest, since fetch reports no upload
 * progress. The answer comes back as the explorer's other API calls give it (walk/api.ts).
 */
import { NO_ANSWER, resultOf, type ApiResult } from './walk/api';

export function uploadFile<T>(path: string, file: Blob, onProgress: (sent: number, total: number) => void): Promise<ApiResult<T>> {
	return new Promise((resolve) => {
		const xhr = new XMLHttpRequest();
		xhr.open('POST', path);
		xhr.setRequestHeader('content-type', 'application/octet-stream');
		xhr.setRequestHeader('accept', 'application/json');
		xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
		xhr.upload.onload = () => onProgress(file.size, file.size);
		xhr.onerror = () => resolve({ ok: false, message: NO_ANSWER });
		xhr.onload = () => {
			let payload: unknown = null;
			try {
				payload = JSON.parse(xhr.responseText);
			} catch {
				// not JSON: resultOf falls back to the status
			}
			resolve(resultOf<T>(xhr.status, payload));
		};
		xhr.send(file);
	});
}
