"""Refuse file uploads: no view takes files, so none is read, kept in memory or written to disk.

Django parses a multipart body on first access to ``request.POST`` (the CSRF check does that
for every POST) and hands each file to the upload handlers, whose default spools anything over
2.5 MB to a temporary file. Here the only handler is ``RefuseFilesHandler``: the first file
part stops the parse before its first byte is read, and ``RefuseUploadsMiddleware``, first
after the security middleware, answers 415 with a plain reason. Multipart forms without a file
(Django's test client sends those) go through as before.
"""

from collections.abc import Callable
from typing import Any

from django.core.files.uploadhandler import FileUploadHandler
from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext as _

MULTIPART = "multipart/form-data"


class FileUploadRefusedError(MultiPartParserError):
    """Raised by ``RefuseFilesHandler`` at the first file of a request."""


class RefuseFilesHandler(FileUploadHandler):
    """Refuse every file part before any of its data is read (``FILE_UPLOAD_HANDLERS``)."""

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        """Stop the parse at the file's headers."""
        raise FileUploadRefusedError("file uploads are not accepted")

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        """Never reached: ``new_file`` refuses first."""
        return None

    def file_complete(self, file_size: int) -> None:
        """Never reached: ``new_file`` refuses first."""
        return None


class RefuseUploadsMiddleware:
    """Answer 415 to a request carrying a file, before any other middleware reads the body."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.content_type == MULTIPART:
            try:
                request.POST  # noqa: B018 (parse now, with RefuseFilesHandler as the only handler)
            except FileUploadRefusedError:
                return HttpResponse(
                    _("This site takes no file uploads: send the form without a file."),
                    status=415,
                    content_type="text/plain; charset=utf-8",
                )
        return self.get_response(request)
