"""The LTI 1.3 claim names, message types, scopes and roles the tool reads, defined once."""

from dataclasses import dataclass
from enum import StrEnum

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE_CLAIM = LTI + "message_type"
DEPLOYMENT_CLAIM = LTI + "deployment_id"
ROLES_CLAIM = LTI + "roles"
CONTEXT_CLAIM = LTI + "context"
RESOURCE_LINK_CLAIM = LTI + "resource_link"
CUSTOM_CLAIM = LTI + "custom"
DEEP_LINKING_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
DEEP_LINKING_DATA_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/data"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
LINEITEM_READ_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"


class MessageType(StrEnum):
    RESOURCE_LINK = "LtiResourceLinkRequest"
    DEEP_LINKING = "LtiDeepLinkingRequest"


# The LTI Core role vocabulary (LTI 1.3 Core, appendix A): full LIS v2 URIs, the simple names
# it allows for context roles, and the LTI 1.1 URNs platforms still send.
LIS = "purl.imsglobal.org/vocab/lis/v2/"
CONTEXT_PREFIX = LIS + "membership"
# ``lis/v2/person#`` is the older system-role form (Moodle's LTI 2 launches send it).
SYSTEM_PREFIXES = (
    LIS + "system/person#",
    LIS + "person#",
    "purl.imsglobal.org/vocab/lti/system/person#",
)
INSTITUTION_PREFIX = LIS + "institution/person#"
LTI11_CONTEXT = "urn:lti:role:ims/lis/"
LTI11_SYSTEM = "urn:lti:sysrole:ims/lis/"
LTI11_INSTITUTION = "urn:lti:instrole:ims/lis/"


class RoleScope(StrEnum):
    CONTEXT = "context"
    SYSTEM = "system"
    INSTITUTION = "institution"


@dataclass(frozen=True)
class Role:
    """One role read from the roles claim: where it holds, its principal role, its sub-role."""

    scope: RoleScope
    principal: str
    sub: str = ""


# Context principal roles that see the class view and may place links. TeachingAssistant is
# LTI 1.1's principal role; LIS v2 makes it a sub-role of Instructor.
TEACHING_ROLES = frozenset({"Instructor", "TeachingAssistant", "ContentDeveloper", "Administrator"})
# The only context principal role whose attempts are scored into the gradebook.
LEARNER_ROLE = "Learner"
# System and institution roles that see the class view of a context they hold no role in.
ADMIN_ROLES = frozenset({"Administrator", "SysAdmin"})


def parse_role(text: str) -> Role | None:
    """Return the role a roles-claim entry names, or None for one outside the vocabulary.

    ``membership#Instructor``, ``membership/Instructor#TeachingAssistant`` (principal, sub),
    ``system/person#Administrator``, ``institution/person#Faculty``, the simple context names
    (``Instructor``), and LTI 1.1's ``urn:lti:role:ims/lis/Instructor/TeachingAssistant``,
    ``urn:lti:sysrole:...`` and ``urn:lti:instrole:...`` forms. Either URI scheme is read.
    """
    role = text.strip()
    for scheme in ("http://", "https://"):
        if role.startswith(scheme):
            role = role[len(scheme) :]
            break
    else:
        if role.startswith(LTI11_CONTEXT):
            principal, _sep, sub = role[len(LTI11_CONTEXT) :].partition("/")
            return Role(RoleScope.CONTEXT, principal, sub) if principal else None
        for prefix, scope in (
            (LTI11_SYSTEM, RoleScope.SYSTEM),
            (LTI11_INSTITUTION, RoleScope.INSTITUTION),
        ):
            if role.startswith(prefix):
                name = role[len(prefix) :]
                return Role(scope, name) if name else None
        if role.isalnum():
            # A simple name is a context role (LTI 1.3 Core, A.2.3).
            return Role(RoleScope.CONTEXT, role)
        return None
    if role.startswith(CONTEXT_PREFIX + "#"):
        name = role[len(CONTEXT_PREFIX) + 1 :]
        return Role(RoleScope.CONTEXT, name) if name else None
    if role.startswith(CONTEXT_PREFIX + "/"):
        principal, _sep, sub = role[len(CONTEXT_PREFIX) + 1 :].partition("#")
        return Role(RoleScope.CONTEXT, principal, sub) if principal else None
    for prefix in SYSTEM_PREFIXES:
        if role.startswith(prefix) and role[len(prefix) :]:
            return Role(RoleScope.SYSTEM, role[len(prefix) :])
    if role.startswith(INSTITUTION_PREFIX) and role[len(INSTITUTION_PREFIX) :]:
        return Role(RoleScope.INSTITUTION, role[len(INSTITUTION_PREFIX) :])
    return None


@dataclass(frozen=True)
class RoleAccess:
    """What a launch's roles allow: the class view (and placing links), being scored."""

    class_view: bool
    scored: bool


def role_access(roles: list[str]) -> RoleAccess:
    """Return what a roles claim allows in its context; the one place roles are read.

    A context role decides: Instructor (any sub-role, TeachingAssistant among them),
    ContentDeveloper or Administrator of the context see the class view and are never scored;
    otherwise a Learner (any sub-role) is scored. Mentor, Observer, Manager, Member, Officer,
    an empty list and unknown roles get neither. A system or institution Administrator with no
    context role at all (someone looking after the platform, visiting a course) sees the class
    view; with a context role, the context role decides, so an administrator enrolled as a
    learner is scored as one.
    """
    parsed = [role for role in map(parse_role, roles) if role is not None]
    context = {role.principal for role in parsed if role.scope == RoleScope.CONTEXT}
    if context & TEACHING_ROLES:
        return RoleAccess(class_view=True, scored=False)
    if context:
        return RoleAccess(class_view=False, scored=LEARNER_ROLE in context)
    admin = any(role.principal in ADMIN_ROLES for role in parsed)
    return RoleAccess(class_view=admin, scored=False)
