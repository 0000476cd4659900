"""The LTI 1.3 claim names, message types, scopes and roles the tool reads, defined once."""

from enum import StrEnum

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE_CLAIM = LTI + "message_type"
DEPLOYMENT_CLAIM = LTI + "deployment_id"
ROLES_CLAIM = LTI + "roles"
CONTEXT_CLAIM = LTI + "context"
RESOURCE_LINK_CLAIM = LTI + "resource_link"
CUSTOM_CLAIM = LTI + "custom"
DEEP_LINKING_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"


class MessageType(StrEnum):
    RESOURCE_LINK = "LtiResourceLinkRequest"
    DEEP_LINKING = "LtiDeepLinkingRequest"


# Context roles that may see the class view and place links (LIS vocabulary, full URIs and
# the short forms LTI 1.3 allows).
INSTRUCTOR_ROLES = frozenset(
    {
        "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
        "http://purl.imsglobal.org/vocab/lis/v2/membership#ContentDeveloper",
        "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant",
        "Instructor",
        "ContentDeveloper",
    }
)


def is_instructor(roles: list[str]) -> bool:
    """Return True when the roles name a teacher of the context (not an institution role)."""
    return any(role in INSTRUCTOR_ROLES for role in roles)
