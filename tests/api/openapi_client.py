"""A generic client of an OpenAPI 3 document: it knows one URL, the document's, and finds every
other path, method, parameter and schema in it by operationId. Requests are checked against the
document before they are sent (path and query parameters, the request body's schema) and every
answer against the schema the document gives for its status, so a document that does not say
what the server does fails the test that uses it.

No knowledge of Hanseweb's paths is in here; tests tell it only operation ids and values.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urljoin

import requests

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


class SchemaMismatch(AssertionError):
    pass


@dataclass
class Answer:
    status: int
    json: object
    headers: dict


@dataclass
class Operation:
    method: str
    path: str
    spec: dict


class OpenApiClient:
    def __init__(self, base_url: str, openapi_url: str, token: str | None = None, session=None):
        self.base = base_url.rstrip("/") + "/"
        self.session = session or requests.Session()
        self.token = token
        response = self.session.get(urljoin(self.base, openapi_url.lstrip("/")), timeout=30)
        response.raise_for_status()
        self.doc = response.json()
        assert str(self.doc.get("openapi", "")).startswith("3."), "not an OpenAPI 3 document"
        server = (self.doc.get("servers") or [{"url": "/"}])[0]["url"]
        self.root = urljoin(self.base, server.lstrip("/")) if not server.startswith("http") else server
        self.operations: dict[str, Operation] = {}
        for path, item in self.doc["paths"].items():
            for method, spec in item.items():
                if method in HTTP_METHODS:
                    self.operations[spec["operationId"]] = Operation(method, path, spec)

    # --- schemas ---------------------------------------------------------------------

    def resolve(self, schema: dict) -> dict:
        while "$ref" in schema:
            node = self.doc
            for part in schema["$ref"].lstrip("#/").split("/"):
                node = node[part]
            schema = node
        return schema

    def check(self, value, schema: dict, where: str = "$") -> None:
        """``value`` fits ``schema`` (the subset of JSON Schema an OpenAPI 3.1 document of
        pydantic models uses: types, properties, required, items, enum, const, anyOf, minimum,
        maximum, date-time), or SchemaMismatch naming where."""
        schema = self.resolve(schema)
        if "anyOf" in schema or "oneOf" in schema:
            options = schema.get("anyOf") or schema.get("oneOf")
            problems = []
            for option in options:
                try:
                    self.check(value, option, where)
                    return
                except SchemaMismatch as exc:
                    problems.append(str(exc))
            raise SchemaMismatch(f"{where}: {value!r} fits none of {problems}")
        if "allOf" in schema:
            for part in schema["allOf"]:
                self.check(value, part, where)
        if "enum" in schema and value not in schema["enum"]:
            raise SchemaMismatch(f"{where}: {value!r} not in {schema['enum']}")
        if "const" in schema and value != schema["const"]:
            raise SchemaMismatch(f"{where}: {value!r} is not {schema['const']!r}")
        kind = schema.get("type")
        kinds = kind if isinstance(kind, list) else [kind] if kind else []
        if kinds and not any(self._is(value, k) for k in kinds):
            raise SchemaMismatch(f"{where}: {value!r} is not of type {kind}")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if "minimum" in schema and value < schema["minimum"]:
                raise SchemaMismatch(f"{where}: {value} < {schema['minimum']}")
            if "maximum" in schema and value > schema["maximum"]:
                raise SchemaMismatch(f"{where}: {value} > {schema['maximum']}")
        if isinstance(value, str) and schema.get("format") == "date-time":
            try:
                datetime.fromisoformat(value.replace("Z", "+00:00"))
            except ValueError:
                raise SchemaMismatch(f"{where}: {value!r} is not a date-time") from None
        if isinstance(value, dict):
            for name in schema.get("required", []):
                if name not in value:
                    raise SchemaMismatch(f"{where}: required {name!r} missing")
            properties = schema.get("properties", {})
            for name, item in value.items():
                if name in properties:
                    self.check(item, properties[name], f"{where}.{name}")
                elif schema.get("additionalProperties") is False:
                    raise SchemaMismatch(f"{where}: {name!r} is not a property of the schema")
                elif isinstance(schema.get("additionalProperties"), dict):
                    self.check(item, schema["additionalProperties"], f"{where}.{name}")
        if isinstance(value, list) and "items" in schema:
            for i, item in enumerate(value):
                self.check(item, schema["items"], f"{where}[{i}]")

    @staticmethod
    def _is(value, kind: str) -> bool:
        return {
            "object": isinstance(value, dict), "array": isinstance(value, list), "string": isinstance(value, str),
            "integer": isinstance(value, int) and not isinstance(value, bool),
            "number": isinstance(value, (int, float)) and not isinstance(value, bool),
            "boolean": isinstance(value, bool), "null": value is None,
        }[kind]

    def body_schema(self, operation_id: str) -> dict:
        """The resolved JSON schema of an operation's request body."""
        body = self.operations[operation_id].spec["requestBody"]
        return self.resolve(body["content"]["application/json"]["schema"])

    # --- calls -------------------------------------------------------------------------

    def call(self, operation_id: str, body=None, *, check_request: bool = True, **params) -> Answer:
        op = self.operations[operation_id]
        path, query = op.path, {}
        for param in op.spec.get("parameters", []):
            name, place = param["name"], param["in"]
            if name not in params:
                assert not param.get("required"), f"{operation_id}: parameter {name!r} is required"
                continue
            value = params.pop(name)
            if check_request:
                self.check(value, param.get("schema", {}), f"{operation_id}.{name}")
            if place == "path":
                path = path.replace("{%s}" % name, str(value))
            elif place == "query":
                query[name] = value
        assert not params, f"{operation_id} has no parameters {sorted(params)}"
        if "requestBody" in op.spec and check_request:
            assert body is not None or not op.spec["requestBody"].get("required"), f"{operation_id} needs a body"
            self.check(body, self.body_schema(operation_id), f"{operation_id}.body")
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        url = urljoin(self.root.rstrip("/") + "/", path.lstrip("/"))
        response = self.session.request(op.method.upper(), url, params=query, json=body, headers=headers, timeout=60)
        data = response.json() if response.content else None
        declared = op.spec.get("responses", {})
        spec = declared.get(str(response.status_code))
        assert spec is not None, f"{operation_id} answered {response.status_code}, which its document does not list: {data}"
        schema = spec.get("content", {}).get("application/json", {}).get("schema")
        if schema is not None:
            self.check(data, schema, f"{operation_id}->{response.status_code}")
        return Answer(response.status_code, data, dict(response.headers))
