"""The Claude reflector: narrative entity summaries and evidence verdicts through the ``anthropic`` SDK.

Every request is keyed by a hash of its full content; answers are cached under
``.memwiki/``, so only entities and opinions whose inputs changed are sent again.
Structured output comes from a forced tool call. Requests run a few at a time,
with the SDK's timeouts and retries (429 and 5xx are retried with backoff).
Any failure (no key, timeout, rate limit, server error, malformed answer) is a
warning naming what happened, and the previous text stays.
"""

from __future__ import annotations

import hashlib
import json
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anthropic

from site_builder.core.diagnostics import Diagnostics
from site_builder.core.model import Note
from site_builder.core.tokens import estimate_tokens
from site_builder.io.memo_store import MemoStore
from site_builder.reflect.claude_prompts import Job, check_summary, check_verdicts, summary_job, verdict_job
from site_builder.reflect.reader import (
    PROMPT_VERSION,
    READ_STAGE,
    READ_TOOL,
    SYSTEM,
    check_findings,
    prose_notes,
    read_prompt,
)
from site_builder.reflect.reflector import EntityInput, MalformedAnswer, Usage, VerdictInput

CACHE_NAME = "reflect-cache.json"  # under .memwiki/
MAX_WORKERS = 4
VERDICT_BATCH = 20
READ_MAX_TOKENS = 4_000
REFUSED = "Claude refused to answer"
MALFORMED = "malformed answer"


class ClaudeReflector:
    name = "anthropic"

    def __init__(
        self,
        client: anthropic.Anthropic | None,
        model: str,
        cache: dict[str, Any] | None = None,
        max_workers: int = MAX_WORKERS,
        max_files: int | None = None,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.client = client
        self.model = model
        self.cache: dict[str, Any] = cache if cache is not None else {}
        self.max_workers = max_workers
        self.max_files = max_files  # how many notes one run sends Claude to read at most (``--max-files``)
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.usage = Usage()
        self._lock = threading.Lock()

    def summaries(self, entities: list[EntityInput], diagnostics: Diagnostics) -> dict[str, str]:
        jobs = {e.key: summary_job(e) for e in entities}
        answers = self._run(jobs, diagnostics, check_summary)
        return {key: answer["summary"].strip() for key, answer in answers.items()}

    def verdicts(self, items: list[VerdictInput], diagnostics: Diagnostics) -> dict[tuple[str, str], str]:
        jobs: dict[tuple[str, int], Job] = {}
        for item in items:
            for start in range(0, len(item.facts), VERDICT_BATCH):
                jobs[(item.opinion.id, start)] = verdict_job(item, item.facts[start : start + VERDICT_BATCH])
        answers = self._run(jobs, diagnostics, check_verdicts)
        out: dict[tuple[str, str], str] = {}
        for item in items:
            for start in range(0, len(item.facts), VERDICT_BATCH):
                answer = answers.get((item.opinion.id, start))
                if answer is None:
                    continue
                given = {v["fact_id"]: v["verdict"] for v in answer["verdicts"]}
                for fact in item.facts[start : start + VERDICT_BATCH]:
                    out[(item.opinion.id, fact.id)] = given.get(fact.id, "irrelevant")
        return out

    def read(self, notes: list[Note], store: MemoStore, diagnostics: Diagnostics) -> dict[str, dict[str, Any]]:
        """What Claude found in each prose note (``reflect.reader``), by path: kept in the memo store by the note's
        digest, the prompt's version and the model, so that a note is sent once; the others are sent now, the most
        recent ``max_files`` of them, after saying how many and about how many tokens. A call that failed is a
        warning and is asked again next run; a refusal or a malformed answer is kept (asking again would cost as
        much, and answer the same)."""
        answers: dict[str, dict[str, Any]] = {}
        todo: list[Note] = []
        for note in prose_notes(notes):
            kept = store.get(READ_STAGE, self._read_key(note), dict)
            if kept is None:
                todo.append(note)
            else:
                answers[note.path] = kept
                self.usage.cached += 1
        if todo and self.client is None:
            diagnostics.warn(
                ".", 0, f"reflect: ANTHROPIC_API_KEY is not set, so {len(todo)} note(s) were not sent to Claude to "
                "read; their offline findings stand", "reflect",
            )  # fmt: skip
        elif todo:
            answers |= self._read_now(todo, store, diagnostics)
        return answers

    def _read_now(self, notes: list[Note], store: MemoStore, diagnostics: Diagnostics) -> dict[str, dict[str, Any]]:
        sent = notes if self.max_files is None else notes[: self.max_files]
        jobs = [Job(f"note {n.path}", n.path, READ_TOOL, SYSTEM, read_prompt(n), READ_MAX_TOKENS) for n in sent]
        tokens = sum(estimate_tokens(job.system + job.prompt) for job in jobs)
        later = f"; {len(notes) - len(sent)} more left for the next run (--max-files)" if len(sent) < len(notes) else ""
        self.say(f"Claude will read {len(sent)} file(s) (~{tokens:,} tokens) with {self.model}{later}")
        answers: dict[str, dict[str, Any]] = {}
        with ThreadPoolExecutor(max_workers=self.max_workers) as pool:
            for note, (answer, error) in zip(
                sent, pool.map(lambda job: self._ask(job, check_findings), jobs), strict=True
            ):
                if error == REFUSED:
                    answer = {"refused": True}
                elif error.startswith(MALFORMED):
                    answer = {"malformed": error}
                elif error:
                    message = f"reflect: Claude could not read this note ({error}); its offline findings stand"
                    diagnostics.warn(note.path, 0, message, "reflect")
                    continue
                assert answer is not None
                store.put(READ_STAGE, self._read_key(note), answer)
                answers[note.path] = answer
        return answers

    def _read_key(self, note: Note) -> tuple[object, ...]:
        return (note.path, note.digest, PROMPT_VERSION, self.model)

    def _run(
        self, jobs: dict[Any, Job], diagnostics: Diagnostics, check: Callable[[dict[str, Any]], None]
    ) -> dict[Any, dict[str, Any]]:
        """Answers by job key, from the cache or from Claude; failures become warnings."""
        answers: dict[Any, dict[str, Any]] = {}
        todo: dict[Any, tuple[str, Job]] = {}
        for key, job in jobs.items():
            digest = self._digest(job)
            if digest in self.cache:
                answers[key] = self.cache[digest]
                self.usage.cached += 1
            else:
                todo[key] = (digest, job)
        if not todo:
            return answers
        if self.client is None:
            diagnostics.warn(
                ".",
                0,
                f"reflect: ANTHROPIC_API_KEY is not set, so {len(todo)} request(s) to Claude were skipped; "
                "the previous text stays (new pages get the offline summary)",
                "reflect",
            )
            return answers
        with ThreadPoolExecutor(max_workers=self.max_workers) as pool:
            results = pool.map(lambda item: (item[0], self._ask(item[1][1], check)), todo.items())
            for key, (answer, error) in results:
                digest, job = todo[key]
                if error:
                    diagnostics.warn(
                        job.path,
                        0,
                        f"reflect: Claude failed for {job.what} ({error}); kept the previous text",
                        "reflect",
                    )
                    continue
                assert answer is not None
                answers[key] = self.cache[digest] = answer
        return answers

    def _ask(self, job: Job, check: Callable[[dict[str, Any]], None]) -> tuple[dict[str, Any] | None, str]:
        assert self.client is not None
        try:
            response = self.client.messages.create(
                model=self.model,
                max_tokens=job.max_tokens,
                system=job.system,
                tools=[job.tool],
                tool_choice={"type": "tool", "name": job.tool["name"]},
                messages=[{"role": "user", "content": job.prompt}],
            )
        except anthropic.APITimeoutError:
            return None, "timed out"
        except anthropic.RateLimitError:
            return None, "rate limited (429) after retries"
        except anthropic.AuthenticationError:
            return None, "the API key was rejected (401)"
        except anthropic.APIStatusError as exc:
            return None, f"API error {exc.status_code}"
        except anthropic.APIConnectionError:
            return None, "could not connect to the API"
        except (anthropic.APIResponseValidationError, ValueError):
            return None, f"{MALFORMED}: not the JSON of a message"
        with self._lock:
            self.usage.calls += 1
            self.usage.input_tokens += response.usage.input_tokens
            self.usage.output_tokens += response.usage.output_tokens
        if response.stop_reason == "refusal":
            return None, REFUSED
        try:
            answer = next(
                (b.input for b in response.content if b.type == "tool_use" and b.name == job.tool["name"]), None
            )
            if not isinstance(answer, dict):
                raise MalformedAnswer(f"no {job.tool['name']} call in the answer")
            check(answer)
        except MalformedAnswer as exc:
            return None, f"{MALFORMED}: {exc}"
        return answer, ""

    def cache_files(self) -> dict[str, bytes]:
        text = json.dumps(self.cache, ensure_ascii=False, sort_keys=True, indent=0)
        return {CACHE_NAME: text.encode("utf-8")}

    def _digest(self, job: Job) -> str:
        key = json.dumps([self.model, job.tool["name"], job.system, job.prompt], ensure_ascii=False)
        return hashlib.sha256(key.encode("utf-8")).hexdigest()
